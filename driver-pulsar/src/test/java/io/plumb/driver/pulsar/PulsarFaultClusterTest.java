package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.fault.FaultOutcome;
import io.plumb.fault.LocalCluster;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.testkit.NodeKill;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicated file under faults on the 3-bookie cluster of {@code deploy/local/pulsar.sh start
 * --nodes 3}: through the whole engine (one partition at 1,000 msg/s of 1 KB for 40 s, the fault in
 * the middle, the framework killing and restarting the node), and the driver on its own.
 */
class PulsarFaultClusterTest {
  private static final SmokeRun RUN = new SmokeRun(1, 1, 1, 1, 1_000, Duration.ofSeconds(40), 1024);
  private static final LocalCluster CLUSTER = LocalCluster.of("pulsar");

  @TempDir Path scratch;

  /** Whatever a run left down (a failed restart) runs again before the next cluster test. */
  @AfterAll
  static void clusterWhole() throws Exception {
    PulsarClusterNodes.startStopped(CLUSTER);
  }

  /**
   * Killing a bookie of the topic's current ledger ({@code target: bookie}) loses no acknowledged
   * message, and publishing carries on: with 3 copies acknowledged at 2, the broker writes around
   * the dead bookie (deploy/local/pulsar.sh sets bookkeeper_delayEnsembleChange) until it is back.
   * On a calm host no publish stalls at all, so the unavailability may be absent; when a stall is
   * seen it ended within seconds.
   */
  @Test
  void killingTheLeaderBookieLosesNothingAndPublishingGoesOn() throws Exception {
    Path plan =
        plan(
            "faults:",
            "  - at: 12s",
            "    action: kill",
            "    target: bookie",
            "    duration: 10s");
    RunReport report =
        RUN.runWithFaults(Path.of("pulsar-replicated.yaml"), plan, Map.of(), scratch);
    // The figures, for the record (target/surefire-reports/*-output.txt).
    System.out.println(report.counters() + "\n" + report.faults());

    Counters counters = report.counters();
    assertTrue(report.complete(), report.incompleteReason());
    assertEquals(0, counters.lost(), counters.toString());
    assertEquals(0, counters.inFlight(), counters.toString());
    assertEquals(1, report.faults().size(), report.faults().toString());
    FaultOutcome fault = report.faults().get(0);
    assertNull(fault.error(), fault.toString());
    assertEquals("kill", fault.action());
    assertTrue(List.of("1", "2", "3").containsAll(fault.nodes()), fault.toString());
    assertEquals(0, fault.acknowledgedLost(), fault.toString());
    assertEquals(0, fault.publishFailures(), fault.toString());
    assertTrue(fault.availableAgain(), fault.toString());
    if (fault.unavailableSeconds() != null) {
      assertTrue(fault.unavailableSeconds() < 10, fault.toString());
    }
    assertNotNull(fault.recoverySeconds(), "not recovered: " + fault);
    assertEquals(counters.acknowledged(), counters.sent(), counters.toString());
  }

  /**
   * Killing the one broker stops everything until it is back (its restart takes 15 s to well over a
   * minute on a loaded 2-core host, so this drives the driver directly rather than through a run of
   * fixed length). Sends made while it is down each complete once, acknowledged after the restart
   * or failed by the 30 s send timeout; then the same producer and consumer carry on by themselves:
   * later sends are acknowledged, and the consumer receives every acknowledged message.
   */
  @Test
  void afterTheBrokerIsKilledEverySendCompletesAndClientsCarryOn() throws Exception {
    PulsarBenchmarkDriver driver = new PulsarBenchmarkDriver();
    driver.initialize(DriverSettingsReader.config(Path.of("pulsar-replicated.yaml"), Map.of()));
    try {
      String topic = driver.topicNamePrefix() + "-broker-" + Long.toHexString(System.nanoTime());
      driver.createTopic(topic, 1).get(30, TimeUnit.SECONDS);
      Set<String> received = ConcurrentHashMap.newKeySet();
      BenchmarkConsumer consumer =
          driver
              .createConsumer(
                  topic,
                  "sub",
                  new MessageListener() {
                    @Override
                    public void received(byte[] payload, int partition) {
                      received.add(new String(payload, StandardCharsets.UTF_8));
                    }

                    @Override
                    public void failed(Throwable error) {}
                  })
              .get(30, TimeUnit.SECONDS);
      BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);

      Sends before = Sends.start(producer, "before", 50);
      before.await(30);
      assertEquals(50, before.acknowledged().size(), "before the kill");

      NodeKill.kill(CLUSTER.node("broker").orElseThrow());
      Sends during = Sends.start(producer, "during", 50);
      PulsarClusterNodes.script(CLUSTER, "start-node", "broker");
      // Each completes once: acknowledged once the producer is back, or failed by the timeout.
      during.await(30 + 15);

      Sends after = Sends.start(producer, "after", 50);
      after.await(45);
      assertEquals(50, after.acknowledged().size(), "after the restart: " + after.failures());

      Set<String> expected = new HashSet<>();
      expected.addAll(before.acknowledged());
      expected.addAll(during.acknowledged());
      expected.addAll(after.acknowledged());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!received.containsAll(expected) && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      Set<String> missing = new HashSet<>(expected);
      missing.removeAll(received);
      assertEquals(Set.of(), missing, "acknowledged but not received");
      System.out.println(
          "broker killed: "
              + during.acknowledged().size()
              + " of 50 sends made while it was down acknowledged, "
              + during.failures().size()
              + " failed "
              + during.failures().stream().limit(1).toList());

      producer.close();
      consumer.close();
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    } finally {
      driver.close();
    }
  }

  /** Sends of numbered messages and how each completed. */
  private record Sends(
      String name,
      int count,
      CountDownLatch done,
      AtomicInteger completions,
      Set<String> acknowledged,
      List<String> failures) {
    static Sends start(BenchmarkProducer producer, String name, int count) {
      Sends sends =
          new Sends(
              name,
              count,
              new CountDownLatch(count),
              new AtomicInteger(),
              ConcurrentHashMap.newKeySet(),
              new CopyOnWriteArrayList<>());
      for (int i = 0; i < count; i++) {
        String payload = name + "-" + i;
        producer.send(
            null,
            payload.getBytes(StandardCharsets.UTF_8),
            i,
            (token, failure) -> {
              if (failure == null) {
                sends.acknowledged.add(payload);
              } else {
                sends.failures.add(failure.toString());
              }
              sends.completions.incrementAndGet();
              sends.done.countDown();
            });
      }
      return sends;
    }

    /** Every send completed within {@code seconds}, each exactly once. */
    void await(long seconds) throws InterruptedException {
      assertTrue(
          done.await(seconds, TimeUnit.SECONDS),
          done.getCount() + " '" + name + "' send(s) not completed within " + seconds + " s");
      assertEquals(count, completions.get(), "'" + name + "' completions");
      assertEquals(count, acknowledged.size() + failures.size(), "'" + name + "' outcomes");
    }
  }

  private Path plan(String... lines) throws Exception {
    Path plan = scratch.resolve("plan-" + System.nanoTime() + ".yaml");
    Files.writeString(plan, String.join("\n", lines) + "\n");
    return plan;
  }
}
