package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.cli.Main;
import io.plumb.stats.Histograms;
import io.plumb.workload.WorkloadYaml;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real clock skew: the consuming worker's JVM runs under libfaketime with its wall clock 80 ms
 * ahead (its monotonic clock left alone, as on a host whose clock is merely set wrong). Producers
 * on one worker, consumers on the other, messages crossing between the JVMs over a UDP relay that
 * hands each on 5 ms after its send ({@link UdpRelayDriver}): whatever the clocks say, every true
 * end-to-end latency is 5 ms plus a wake-up. Run through the command line and the report, as a user
 * would.
 *
 * <p>So the measured offset must hold the true 80 ms within its stated uncertainty, no end-to-end
 * sample may fall below 5 ms by more than that uncertainty (none negative, then), the median must
 * lie near 5 ms, and the console, the result and the report must carry the ± beside the figures.
 */
@Tag("host-timing")
class ClockSkewTest {
  private static final Path LIBFAKETIME =
      Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
  private static final double SKEW_MILLIS = 80;
  private static final long DELAY_MILLIS = 5;

  /** The histograms keep three significant figures: 5 ms is known to about 5 us. */
  private static final double HISTOGRAM_RESOLUTION_MILLIS = 0.01;

  /** What a busy 2-core host may add to the relay's 5 ms at the median: wake-ups, a send delay. */
  private static final double MEDIAN_SLACK_MILLIS = 3;

  /**
   * Worker JVMs that start quickly and take little of the host from the coordinator and each other:
   * with WorkerProcess's C1 only and 256 MB heap, and the JDK's class data sharing (on by default),
   * the serial collector and its single thread.
   */
  private static final List<String> LEAN_JVM = List.of("-XX:+UseSerialGC");

  @TempDir Path dir;

  /**
   * libfaketime's environment for a JVM whose wall clock runs {@link #SKEW_MILLIS} ahead while its
   * monotonic clock, and so its timed waits, stay true.
   *
   * <p>FAKETIME_FORCE_MONOTONIC_FIX=0 matters as much as the skew: without it libfaketime 0.9.10,
   * as Debian ships it on glibc 2.36, applies its "monotonic fix" to pthread_cond_timedwait, and
   * the JVM's timed waits, which wait on CLOCK_MONOTONIC, end at once or far too late:
   * LockSupport.parkNanos(5 ms) returned 2,300 times a wait, Thread.sleep(5 ms) took 50 ms. Every
   * timed wait of the worker spun, the 2-core host ran at a load of 16, the coordinator's /clock
   * round trips took milliseconds (each offset known to ± 2 to 6 ms, and off by up to 2.5 ms), some
   * answers came later than the 6 s allowed, and the test took minutes.
   */
  private static Map<String, String> wallClockAhead() {
    return Map.of(
        "LD_PRELOAD",
        LIBFAKETIME.toString(),
        "FAKETIME",
        "+" + SKEW_MILLIS / 1000,
        "FAKETIME_DONT_FAKE_MONOTONIC",
        "1",
        "FAKETIME_FORCE_MONOTONIC_FIX",
        "0");
  }

  @Test
  void anEightyMillisecondSkewIsMeasuredWithinItsUncertaintyAndNoLatencyComesOutBelowTheRelays()
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
        WorkloadYaml.oneTopic()
            .named("skew")
            .messageSize(128)
            .rate(1000)
            .seconds(3)
            .writeTo(dir.resolve("workload.yaml"));
    Path driver =
        Files.writeString(
            dir.resolve("udp.yaml"),
            "name: UdpRelay\ndriverClass: "
                + UdpRelayDriver.class.getName()
                + "\nport: "
                + port
                + "\ndelayMillis: "
                + DELAY_MILLIS
                + "\n");
    Path token = Files.writeString(dir.resolve("token"), WorkerProcess.TOKEN + "\n");
    Path resultFile = dir.resolve("result.json");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    // Both JVMs start at once: on a 2-core host one's class loading overlaps the other's waits.
    try (WorkerProcess producing = WorkerProcess.launchWorker(LEAN_JVM, Map.of());
        WorkerProcess consuming = WorkerProcess.launchWorker(LEAN_JVM, wallClockAhead())) {
      producing.awaitListening();
      consuming.awaitListening();
      int status =
          Main.run(
              new String[] {
                "--workers",
                producing.uri() + "," + consuming.uri(),
                "--worker-roles",
                "split",
                "--token-file",
                token.toString(),
                "--period",
                "1",
                "-d",
                driver.toString(),
                "-o",
                resultFile.toString(),
                workload.toString()
              },
              new PrintStream(console, true, StandardCharsets.UTF_8),
              new PrintStream(errors, true, StandardCharsets.UTF_8));
      assertEquals(0, status, console.toString(StandardCharsets.UTF_8) + errors);
    }
    String out = console.toString(StandardCharsets.UTF_8);
    JsonNode result = new ObjectMapper().readTree(resultFile.toFile());
    assertTrue(result.path("counters").path("received").asLong() > 2_500, out);

    // Worker clocks minus the coordinator's: the consumer's 80 ms ahead, the producer's on time.
    JsonNode producer = result.path("workers").path("workers").get(0);
    JsonNode consumer = result.path("workers").path("workers").get(1);
    assertEquals(1, producer.path("producers").asInt(), producer.toString());
    assertEquals(1, consumer.path("consumers").asInt(), consumer.toString());
    double consumerOffset = consumer.path("clockOffsetMillis").asDouble();
    double consumerUncertainty = consumer.path("clockUncertaintyMillis").asDouble();
    assertTrue(
        Math.abs(consumerOffset - SKEW_MILLIS) <= consumerUncertainty,
        "consumer's offset " + consumerOffset + " ± " + consumerUncertainty + " ms, true 80 ms");
    double producerOffset = producer.path("clockOffsetMillis").asDouble();
    double producerUncertainty = producer.path("clockUncertaintyMillis").asDouble();
    assertTrue(
        Math.abs(producerOffset) <= producerUncertainty,
        "producer's offset " + producerOffset + " ± " + producerUncertainty + " ms, true 0 ms");

    // End-to-end latency is off by the two offsets' errors at most: the stated uncertainty.
    JsonNode endToEnd = result.path("latency").path("endToEnd");
    double uncertainty = endToEnd.path("clockUncertaintyMillis").asDouble(-1);
    assertEquals(consumerUncertainty + producerUncertainty, uncertainty, 1e-6, endToEnd.toString());
    // Only offsets known to better than the relay's delay can promise no negative latency.
    assertTrue(uncertainty < DELAY_MILLIS, "offsets known only to ± " + uncertainty + " ms");
    assertEquals(0, result.path("counters").path("negativeEndToEnd").asLong(), out);
    Histogram histogram = Histograms.decode(endToEnd.path("histogram").asText());
    double min = histogram.getMinValue() / 1e6;
    assertTrue(
        min >= DELAY_MILLIS - uncertainty - HISTOGRAM_RESOLUTION_MILLIS,
        "fastest end-to-end " + min + " ms, below the relay's 5 ms by more than ± " + uncertainty);
    double p50 = endToEnd.path("p50").asDouble();
    assertTrue(
        p50 >= DELAY_MILLIS - uncertainty
            && p50 <= DELAY_MILLIS + uncertainty + MEDIAN_SLACK_MILLIS,
        "end-to-end p50 " + p50 + " ms ± " + uncertainty + ", relay delay 5 ms: " + out);

    // The ± goes beside every end-to-end figure a user reads, and the warning exactly when due.
    String plusMinus = String.format(Locale.ROOT, "± %.3f ms", uncertainty);
    assertTrue(out.contains("end-to-end " + plusMinus + " "), out);
    assertTrue(
        out.contains(
            "Clocks       end-to-end latency across hosts: clock offsets known to " + plusMinus),
        out);
    assertTrue(
        out.lines().anyMatch(l -> l.contains("e2e ms p50") && l.contains("(clocks ± ")), out);
    boolean warned = uncertainty > p50 / 10;
    String warning = "end-to-end latency across these hosts is known only to " + plusMinus;
    assertEquals(warned, out.contains(warning), out);
    assertEquals(warned, endToEnd.has("clockWarning"), endToEnd.toString());

    Path html = dir.resolve("report.html");
    assertEquals(
        0,
        Main.run(
            new String[] {"report", resultFile.toString(), "-o", html.toString()},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(errors, true, StandardCharsets.UTF_8)),
        errors.toString(StandardCharsets.UTF_8));
    String report = Files.readString(html);
    assertTrue(
        Pattern.compile("<th>p50</th><td>[0-9.]+ ± [0-9.]+</td>").matcher(report).find(),
        "the report's end-to-end p50 without its ±");
    assertTrue(
        report.contains("<th>clocks across hosts</th><td>" + (warned ? warning : "offsets known")),
        "the report's clocks row");
  }
}
