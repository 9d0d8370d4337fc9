package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.ClientWindow;
import io.plumb.testkit.DriverFiles;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The windows the Pulsar driver reports, as the client applies the shipped files' settings to a
 * partitioned topic, without a broker.
 */
class PulsarWindowsTest {

  private static Map<String, String> facts(
      String file, Map<String, String> overrides, int partitions) throws Exception {
    PulsarConfig config =
        DriverFiles.settings(Path.of(file), overrides, f -> PulsarConfig.read(f, Map.of()));
    return PulsarWindows.facts(config, partitions);
  }

  @Test
  void noPendingCountLeavesOnlyTheClientsMemory() throws Exception {
    // pulsar.yaml: pendingQueueSize 0, clientMemoryLimitMB 256, receiverQueueSize 10,000.
    Map<String, String> facts = facts("pulsar.yaml", Map.of(), 4);
    assertEquals(BrokerFactNames.UNBOUNDED, facts.get(BrokerFactNames.SEND_WINDOW));
    String limit = facts.get(BrokerFactNames.SEND_WINDOW_LIMIT);
    assertTrue(limit.startsWith("producer.pendingQueueSize 0: "), limit);
    assertTrue(limit.contains("client.clientMemoryLimitMB 256 MB"), limit);
    // 4 x 10,000 would pass the client's default total of 50,000 across partitions: 4 x 12,500 is
    // not below 10,000, so each partition prefetches 10,000.
    assertEquals("40000", facts.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals("consumer.receiverQueueSize", ClientWindow.receive(facts).orElseThrow().setting());
  }

  @Test
  void aMemoryLimitOfZeroIsNoLimit() throws Exception {
    // The client takes 0 as "no memory limit": with no count either, nothing bounds the sends.
    Map<String, String> facts = facts("pulsar.yaml", Map.of("client.clientMemoryLimitMB", "0"), 4);
    String limit = facts.get(BrokerFactNames.SEND_WINDOW_LIMIT);
    assertEquals(BrokerFactNames.UNBOUNDED, facts.get(BrokerFactNames.SEND_WINDOW));
    assertTrue(limit.contains("client.clientMemoryLimitMB 0 (no memory limit)"), limit);
    assertTrue(limit.contains("nothing bounds the pending messages"), limit);
    assertTrue(!limit.contains("0 MB"), limit);
    Map<String, String> counted =
        facts(
            "pulsar.yaml",
            Map.of("client.clientMemoryLimitMB", "0", "producer.pendingQueueSize", "100"),
            4);
    String countedLimit = counted.get(BrokerFactNames.SEND_WINDOW_LIMIT);
    assertTrue(countedLimit.contains("no memory limit"), countedLimit);
  }

  @Test
  void aPendingCountIsPerPartitionProducer() throws Exception {
    Map<String, String> facts = facts("pulsar.yaml", Map.of("producer.pendingQueueSize", "100"), 3);
    assertEquals("300", facts.get(BrokerFactNames.SEND_WINDOW));
    assertEquals("producer.pendingQueueSize", ClientWindow.send(facts).orElseThrow().setting());
  }

  @Test
  void theTotalAcrossPartitionsLowersEachPartitionsQueue() throws Exception {
    // 16 partitions: 50,000 / 16 = 3,125 per partition, below receiverQueueSize 10,000.
    Map<String, String> facts = facts("pulsar.yaml", Map.of(), 16);
    assertEquals("50000", facts.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals(
        "consumer.maxTotalReceiverQueueSizeAcrossPartitions",
        ClientWindow.receive(facts).orElseThrow().setting());
  }

  @Test
  void beforeAnyTopicExistsNoWindowIsReported() throws Exception {
    assertEquals(Map.of(), facts("pulsar.yaml", Map.of(), 0));
  }
}
