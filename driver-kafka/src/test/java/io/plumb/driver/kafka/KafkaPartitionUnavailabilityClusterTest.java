package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.fault.FaultOutcome;
import io.plumb.fault.Unavailability;
import io.plumb.result.RunReport;
import io.plumb.testkit.OneFault;
import io.plumb.testkit.SmokeRun;
import io.plumb.testkit.WholeCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unavailability per partition on the local 3-node cluster ({@code deploy/local/kafka.sh start
 * --nodes 3}; runs only with {@code -Pcluster}): one topic of 4 partitions at 2,000 msg/s for 30 s,
 * and the node leading partition 0 killed 6 s in (started again 10 s later). The leaders are read
 * with Kafka's admin client before the fault; the worst partition must be one that node led, and
 * the partitions affected exactly those it led.
 *
 * <p>It runs {@code kafka-replicated-weak.yaml} (acks=1): there only a partition's leader answers a
 * send, so the partitions other nodes lead go on. With acks=all every partition that has a copy on
 * the killed node waits until the controller fences it and takes it out of the in-sync set, so
 * every partition is affected, and the count would not single out the led ones.
 */
class KafkaPartitionUnavailabilityClusterTest {
  private static final int PARTITIONS = 4;
  private static final SmokeRun RUN =
      new SmokeRun(PARTITIONS, 1, 1, 1, 2_000, Duration.ofSeconds(30), 1024);

  @TempDir Path scratch;

  @RegisterExtension static final WholeCluster CLUSTER = LocalKafkaCluster.WHOLE_FOR_EACH_TEST;

  @Test
  void theWorstPartitionIsOneTheKilledNodeLedAndOnlyThoseAreAffected() throws Exception {
    Path plan =
        new OneFault("kill", "leader", 6, 10, 10).writeTo(scratch.resolve("kill-leader.yaml"));
    Set<String> before;
    try (Admin admin = LocalKafkaCluster.admin()) {
      before = new HashSet<>(admin.listTopics().names().get(30, TimeUnit.SECONDS));
    }
    CompletableFuture<Map<Integer, String>> leaders =
        CompletableFuture.supplyAsync(() -> leadersOfNewTopic(before));

    RunReport report =
        RUN.runWithFaults(Path.of("kafka-replicated-weak.yaml"), plan, Map.of(), scratch);

    Map<Integer, String> led = leaders.get(5, TimeUnit.SECONDS);
    assertEquals(1, report.faults().size(), report.toString());
    FaultOutcome fault = report.faults().get(0);
    assertNull(fault.error(), fault.toString());
    String killed = fault.nodes().get(0);
    assertEquals(led.get(0), killed, "the node killed led partition 0: " + led);
    Set<Integer> killedLed = new HashSet<>();
    led.forEach(
        (partition, leader) -> {
          if (leader.equals(killed)) {
            killedLed.add(partition);
          }
        });
    Unavailability figures = fault.unavailability();
    String summary = "leaders before the fault " + led + ", killed " + killed + ": " + figures;
    System.out.println(summary);
    assertNotNull(figures.worstPartition(), summary);
    int worst =
        Integer.parseInt(
            figures.worstPartition().substring(figures.worstPartition().lastIndexOf('/') + 1));
    assertTrue(killedLed.contains(worst), summary);
    assertEquals(killedLed.size(), figures.partitionsAffected(), summary);
    assertTrue(figures.worstPartitionSeconds() > figures.affectedAboveSeconds(), summary);
    assertTrue(figures.partitionsAvailableAgain(), summary);
    assertFalse(figures.goodput().acknowledgedPerSecond().isEmpty(), summary);
  }

  /**
   * The leader of each partition of the topic the run creates, read once all of them have one
   * (within seconds of its creation, long before the fault).
   */
  private static Map<Integer, String> leadersOfNewTopic(Set<String> before) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    try (Admin admin = LocalKafkaCluster.admin()) {
      while (System.nanoTime() < deadline) {
        Set<String> fresh = new HashSet<>(admin.listTopics().names().get(30, TimeUnit.SECONDS));
        fresh.removeAll(before);
        fresh.removeIf(name -> name.startsWith("__"));
        if (fresh.size() == 1) {
          String topic = fresh.iterator().next();
          TopicDescription description =
              admin
                  .describeTopics(Set.of(topic))
                  .allTopicNames()
                  .get(30, TimeUnit.SECONDS)
                  .get(topic);
          Map<Integer, String> leaders = new TreeMap<>();
          for (TopicPartitionInfo partition : description.partitions()) {
            if (partition.leader() != null && !partition.leader().isEmpty()) {
              leaders.put(partition.partition(), partition.leader().idString());
            }
          }
          if (leaders.size() == PARTITIONS) {
            return leaders;
          }
        }
        Thread.sleep(250);
      }
    } catch (Exception e) {
      throw new IllegalStateException("reading the new topic's leaders: " + e, e);
    }
    throw new IllegalStateException("no new topic of " + PARTITIONS + " partitions with leaders");
  }
}
