package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.FinalReadProbe;
import io.plumb.testkit.DriverFiles;
import io.plumb.testkit.NoFinalRead;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.MessageId;
import org.junit.jupiter.api.Test;

/** The final read against the local standalone broker (deploy/local/pulsar.sh start). */
class PulsarFinalReadTest {

  private static final int PARTITIONS = 3;
  private static final int PRODUCERS = 2;
  private static final int PER_PRODUCER = 300;

  private static PulsarBenchmarkDriver driver(Map<String, String> overrides) throws Exception {
    return DriverFiles.open(PulsarBenchmarkDriver::new, Path.of("pulsar.yaml"), overrides);
  }

  /** Logs: nothing consumed; the read takes every message, up to the broker's last entries. */
  @Test
  void readsEveryPartitionUpToTheLastMessageIdTheBrokerReports() throws Exception {
    try (PulsarBenchmarkDriver driver = driver(Map.of())) {
      String topic = driver.topicNamePrefix() + "-final-" + System.nanoTime();
      driver.createTopic(topic, PARTITIONS).get(60, TimeUnit.SECONDS);
      // Keyed: unkeyed messages sent in a burst all go to the partition of the current batch.
      FinalReadProbe.produceKeyed(driver, topic, PRODUCERS, PER_PRODUCER);
      MessageId[] lastIds = new MessageId[PARTITIONS];
      for (int p = 0; p < PARTITIONS; p++) {
        lastIds[p] =
            driver.admin().topics().getLastMessageId(PulsarFinalRead.partitionTopic(topic, p));
      }

      FinalReadProbe.Collected read = new FinalReadProbe.Collected();
      String end = driver.readToEnd(topic, "sub", read, Duration.ofSeconds(60));

      read.assertExactly(PRODUCERS, PER_PRODUCER);
      assertEquals(Set.of(0, 1, 2), read.partitions, "partitions as consumers number them");
      assertEquals(PulsarFinalRead.describe(lastIds), end, "the broker's last message IDs");
      assertTrue(!end.contains("none"), end);
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void nonPersistentTopicsSayTheyKeepNothing() throws Exception {
    try (PulsarBenchmarkDriver driver = driver(Map.of("client.topicType", "non-persistent"))) {
      NoFinalRead.assertRefused(driver, "non-persistent topics keep no messages");
    }
    try (PulsarBenchmarkDriver driver = driver(Map.of())) {
      assertEquals(Optional.empty(), driver.whyNoFinalRead());
    }
  }
}
