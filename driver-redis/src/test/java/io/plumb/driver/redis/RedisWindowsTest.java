package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.ClientWindow;
import io.plumb.testkit.DriverFiles;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The windows the Redis driver reports, from the shipped files and overrides, without a server. */
class RedisWindowsTest {

  private static Map<String, String> facts(
      String file, Map<String, String> overrides, int partitions) throws Exception {
    RedisDriverConfig config =
        DriverFiles.settings(
            Path.of(file), overrides, f -> RedisDriverConfig.read(f, Map.of(), Map.of()));
    return RedisWindows.facts(config, partitions);
  }

  @Test
  void aProducerHasOnePipelineAwaitingTheServer() throws Exception {
    Map<String, String> facts = facts("redis.yaml", Map.of(), 0);
    assertEquals("16", facts.get(BrokerFactNames.SEND_WINDOW));
    String limit = facts.get(BrokerFactNames.SEND_WINDOW_LIMIT);
    assertTrue(limit.startsWith("pipelineDepth 16 commands per round trip"), limit);
    assertTrue(limit.contains("maxPendingSends 1024"), limit);
    // Streams read per partition: no receive window before the topic exists.
    assertFalse(facts.containsKey(BrokerFactNames.RECEIVE_WINDOW), facts.toString());
  }

  @Test
  void aStreamConsumerReadsABatchFromEveryPartition() throws Exception {
    Map<String, String> facts =
        facts("redis.yaml", Map.of("readBatchSize", "100", "pipelineDepth", "4"), 4);
    assertEquals("4", facts.get(BrokerFactNames.SEND_WINDOW));
    assertEquals("400", facts.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals("readBatchSize", ClientWindow.receive(facts).orElseThrow().setting());
  }

  @Test
  void pubSubHasNoReceiveWindow() throws Exception {
    Map<String, String> facts = facts("redis-pubsub.yaml", Map.of(), 0);
    assertEquals(BrokerFactNames.UNBOUNDED, facts.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals("mode", ClientWindow.receive(facts).orElseThrow().setting());
  }
}
