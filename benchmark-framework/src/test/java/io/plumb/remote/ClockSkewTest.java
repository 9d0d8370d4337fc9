package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.RunReport;
import io.plumb.workload.WorkloadReader;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real clock skew: the consuming worker's JVM runs under libfaketime with its wall clock 80 ms
 * ahead (its monotonic clock left alone, as on a host whose clock is merely set wrong). Producers
 * on one worker, consumers on the other, messages crossing between the JVMs over UDP: the measured
 * offset must hold the true 80 ms within its stated uncertainty, and an end-to-end latency may come
 * out negative only when the run states an uncertainty large enough to warn about it.
 */
class ClockSkewTest {
  private static final Path LIBFAKETIME =
      Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
  private static final long SKEW_NANOS = 80_000_000;

  @TempDir Path dir;

  @Test
  void anEightyMillisecondSkewIsMeasuredWithinItsUncertaintyAndNegativeLatencyComesWithAWarning()
      throws Exception {
    assertTrue(
        Files.exists(LIBFAKETIME),
        LIBFAKETIME
            + " missing: install Debian's faketime (deploy/local/install-debian-packages.sh)");
    int port;
    try (DatagramSocket free = new DatagramSocket(0)) {
      port = free.getLocalPort();
    }
    Path workload =
        Files.writeString(
            dir.resolve("workload.yaml"),
            """
            topics: 1
            partitionsPerTopic: 1
            messageSize: 128
            subscriptionsPerTopic: 1
            consumerPerSubscription: 1
            producersPerTopic: 1
            producerRate: 1000
            testDurationSeconds: 6
            warmupDurationSeconds: 0
            """);
    Path driver =
        Files.writeString(
            dir.resolve("udp.yaml"),
            "name: UdpRelay\ndriverClass: "
                + UdpRelayDriver.class.getName()
                + "\nport: "
                + port
                + "\n");
    try (WorkerProcess producing = WorkerProcess.startWorker(List.of(), Map.of());
        WorkerProcess consuming =
            WorkerProcess.startWorker(
                List.of(),
                Map.of(
                    "LD_PRELOAD", LIBFAKETIME.toString(),
                    "FAKETIME", "+0.08",
                    "FAKETIME_DONT_FAKE_MONOTONIC", "1"))) {
      DistributedWorkers workers =
          DistributedWorkers.connect(
              List.of(producing.client(), consuming.client()), WorkerRoles.SPLIT);
      // The run closes the ensemble in its teardown.
      RunReport report;
      report =
          new BenchmarkRun(
                  WorkloadReader.read(workload),
                  driver,
                  workers,
                  RunOptions.defaults().withPeriod(Duration.ofSeconds(1)),
                  RunListener.SILENT)
              .execute();
      assertTrue(report.complete(), report.incompleteReason());
      assertTrue(report.counters().received() > 3_000, report.counters().toString());

      JsonNode each = workers.breakdown().get("workers");
      JsonNode producer = each.get(0);
      JsonNode consumer = each.get(1);
      assertEquals(1, producer.get("producers").asInt(), producer.toString());
      assertEquals(1, consumer.get("consumers").asInt(), consumer.toString());
      double offset = consumer.get("clockOffsetMillis").asDouble();
      double uncertainty = consumer.get("clockUncertaintyMillis").asDouble();
      assertTrue(
          Math.abs(offset - SKEW_NANOS / 1e6) <= uncertainty,
          "consumer's offset " + offset + " ± " + uncertainty + " ms, true 80 ms");
      double producerOffset = producer.get("clockOffsetMillis").asDouble();
      assertTrue(
          Math.abs(producerOffset) <= producer.get("clockUncertaintyMillis").asDouble(),
          producer.toString());

      long crossHost = workers.endToEndClockUncertaintyNanos().orElseThrow();
      assertTrue(
          crossHost
              >= (long) ((uncertainty + producer.get("clockUncertaintyMillis").asDouble()) * 1e6)
                  - 1);
      // Over loopback the one-way latency is smaller than what the offset is known to, so some
      // samples can still come out negative; the run must then say so: its stated uncertainty is
      // more than a tenth of the end-to-end p50, the point at which it warns that end-to-end
      // latency across these hosts is known only to that much.
      long negative = report.counters().negativeEndToEnd();
      long p50 = report.measured().endToEndLatency().getValueAtPercentile(50);
      assertTrue(
          negative == 0 || crossHost * 10 > p50,
          negative
              + " negative end-to-end samples, yet the stated uncertainty "
              + crossHost
              + " ns is under a tenth of the p50 "
              + p50
              + " ns");
    }
  }
}
