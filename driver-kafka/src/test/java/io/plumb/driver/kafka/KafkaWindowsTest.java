package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.ClientWindow;
import io.plumb.testkit.DriverFiles;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/**
 * The windows the Kafka driver reports, from the shipped files with the client's defaults filled in
 * and from {@code --driver-set}, without a broker (KafkaWindowFactsTest reads them from a run).
 */
class KafkaWindowsTest {

  private static Map<String, String> facts(
      String file, Map<String, String> overrides, int partitions) throws Exception {
    KafkaSettings settings =
        DriverFiles.settings(
            Path.of(file), overrides, fields -> KafkaSettings.resolve(fields, Map.of()));
    return KafkaWindows.facts(
        new ProducerConfig(settings.producer()), settings.consumer(), partitions);
  }

  @Test
  void theSendWindowIsTheProducersBufferWithTheClientsDefault() throws Exception {
    // kafka.yaml leaves buffer.memory at the client's default, 32 MiB.
    Map<String, String> facts = facts("kafka.yaml", Map.of(), 0);
    assertEquals("33554432 bytes", facts.get(BrokerFactNames.SEND_WINDOW));
    String limit = facts.get(BrokerFactNames.SEND_WINDOW_LIMIT);
    assertTrue(limit.startsWith("buffer.memory 33554432 bytes"), limit);
    assertTrue(limit.contains("max.in.flight.requests.per.connection 5"), limit);
    assertTrue(limit.contains("batch.size 131072"), limit);
    assertTrue(limit.endsWith("--driver-set buffer.memory=N"), limit);
    // No topic yet: the receive window, per partition, is not known.
    assertFalse(facts.containsKey(BrokerFactNames.RECEIVE_WINDOW), facts.toString());
  }

  @Test
  void theReceiveWindowIsAFetchOfEveryPartitionUpToTheFetchLimit() throws Exception {
    Map<String, String> four = facts("kafka.yaml", Map.of(), 4);
    assertEquals("4194304 bytes", four.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals("max.partition.fetch.bytes", ClientWindow.receive(four).orElseThrow().setting());

    // kafka-throughput.yaml fetches 10 MiB per partition: 8 of them pass fetch.max.bytes (50 MiB).
    Map<String, String> eight = facts("kafka-throughput.yaml", Map.of(), 8);
    assertEquals("52428800 bytes", eight.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals("fetch.max.bytes", ClientWindow.receive(eight).orElseThrow().setting());
    assertEquals("67108864 bytes", eight.get(BrokerFactNames.SEND_WINDOW));
  }

  @Test
  void driverSetChangesTheWindows() throws Exception {
    Map<String, String> facts =
        facts(
            "kafka.yaml",
            Map.of("buffer.memory", "1048576", "max.partition.fetch.bytes", "65536"),
            2);
    assertEquals("1048576 bytes", facts.get(BrokerFactNames.SEND_WINDOW));
    assertEquals("131072 bytes", facts.get(BrokerFactNames.RECEIVE_WINDOW));
  }
}
