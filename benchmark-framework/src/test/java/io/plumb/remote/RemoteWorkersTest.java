package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.coordinator.BacklogOutcome;
import io.plumb.coordinator.BacklogTimeline;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.resources.ResourceReport;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadYaml;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A coordinator and two worker JVMs on the loopback driver. */
class RemoteWorkersTest {
  // JUnit stops both after the last test, the second even when stopping the first fails.
  @AutoClose private static WorkerProcess first;
  @AutoClose private static WorkerProcess second;
  private final HttpClient http = HttpClient.newHttpClient();
  @TempDir Path dir;

  @BeforeAll
  static void startWorkers() throws Exception {
    first = WorkerProcess.startWorker();
    second = WorkerProcess.startWorker();
  }

  @Test
  void mergedCountsAreTheSumOfEachWorkersAndAStallShowsInTheirHistograms() throws Exception {
    Path workload = dir.resolve("workload.yaml");
    WorkloadYaml.oneTopic()
        .named("two-workers")
        .topics(2)
        .partitions(2)
        .messageSize(128)
        .rate(4000)
        .seconds(2)
        .writeTo(workload);
    // Each worker's in-process "broker" stops answering for 700 ms once, after 1,000 messages.
    Path driver = LoopbackDriverFile.write(dir, "stallAfterMessages: 1000\nstallMillis: 700\n");
    DistributedWorkers workers =
        DistributedWorkers.connect(List.of(first.client(), second.client()), WorkerRoles.BOTH);
    BenchmarkRun run = DistributedRuns.prepare(workload, driver, workers, Duration.ofSeconds(1));
    RunReport report = run.execute();

    assertTrue(report.complete(), report.incompleteReason());
    Counters counters = report.counters();
    assertTrue(counters.sent() > 4000, "sent " + counters.sent());
    assertEquals(counters.sent(), counters.received());
    assertEquals(0, counters.lost());
    assertEquals(0, counters.duplicated());
    assertTrue(report.measured().publishLatency().getMaxValue() >= 700_000_000L);

    JsonNode breakdown = workers.breakdown();
    JsonNode each = breakdown.get("workers");
    assertEquals(2, each.size());
    long sent = 0;
    long received = 0;
    for (JsonNode worker : each) {
      // The result's documented fields, in this order; lostReason only for a lost worker.
      List<String> fields = new ArrayList<>();
      worker.fieldNames().forEachRemaining(fields::add);
      assertEquals(
          List.of(
              "url",
              "producers",
              "consumers",
              "clockOffsetMillis",
              "clockUncertaintyMillis",
              "lost",
              "sent",
              "acknowledged",
              "failed",
              "received",
              "duplicates",
              "consumerErrors",
              "negativeEndToEnd",
              "publishLatencyMillis",
              "endToEndLatencyMillis"),
          fields);
      List<String> latencyFields = new ArrayList<>();
      worker.get("publishLatencyMillis").fieldNames().forEachRemaining(latencyFields::add);
      assertEquals(List.of("count", "p50", "p99", "max"), latencyFields);
      assertEquals(1, worker.get("producers").asInt(), worker.toString());
      assertEquals(1, worker.get("consumers").asInt(), worker.toString());
      assertTrue(worker.get("sent").asLong() > 0, worker.toString());
      assertTrue(Math.abs(worker.get("clockOffsetMillis").asDouble()) < 50, worker.toString());
      assertTrue(worker.get("clockUncertaintyMillis").asDouble() >= 0, worker.toString());
      // The stall crossed the wire in the encoded histograms: the worst message waited all of it.
      assertTrue(
          worker.get("publishLatencyMillis").get("max").asDouble() >= 700, worker.toString());
      assertTrue(
          worker.get("endToEndLatencyMillis").get("max").asDouble() >= 700, worker.toString());
      sent += worker.get("sent").asLong();
      received += worker.get("received").asLong();
    }
    assertEquals(counters.sent(), sent, "merged sent equals the sum of the workers'");
    assertEquals(counters.received(), received, "merged received equals the sum of the workers'");

    // Each worker JVM's resources were sampled over its own API at the coordinator's period ends.
    ResourceReport resources = report.resources();
    assertTrue(resources.scope().contains("coordinator"), resources.scope());
    assertEquals(
        List.of(first.client().name(), second.client().name()),
        List.copyOf(resources.remoteWorkers().keySet()));
    for (ResourceReport worker : resources.remoteWorkers().values()) {
      assertTrue(worker.sampled(), worker.scope());
      assertEquals(resources.periods().size(), worker.periods().size(), worker.scope());
      assertTrue(worker.periods().size() >= 2, worker.scope() + ": two 1 s periods measured");
      assertTrue(worker.whole().workerCores() > 0, worker.scope() + " did some work");
      assertTrue(worker.heapUsedMaxBytes() > 0, worker.scope());
      assertTrue(worker.cores() > 0, worker.scope());
    }
    assertTrue(resources.workerShareOfHost() > 0, "the busiest worker's share of its host");
    assertEquals(2, resources.toJson().path("remoteWorkers").size());

    // The workers' own counters agree, as Prometheus would scrape them.
    String metrics = get(first.uri().resolve("/metrics"), WorkerProcess.TOKEN).body();
    assertTrue(metrics.contains("# TYPE plumb_worker_messages_sent_total counter"), metrics);
    long scraped =
        metrics
            .lines()
            .filter(line -> line.startsWith("plumb_worker_messages_sent_total "))
            .mapToLong(line -> Long.parseLong(line.split(" ")[1]))
            .sum();
    assertEquals(each.get(0).get("sent").asLong(), scraped);
    assertTrue(
        first.output().stream().noneMatch(line -> line.contains(WorkerProcess.TOKEN)),
        "the token never appears in a worker's log");
  }

  /**
   * 0.005 GiB of 1 KiB messages is 5,243: about half a second of building at 10,000 msg/s. Each
   * worker's loopback "broker" serves its own producer and consumer (roles both).
   */
  private static final String BACKLOG_WORKLOAD =
      """
      name: remote-backlog
      topics: 2
      partitionsPerTopic: 2
      messageSize: 1024
      subscriptionsPerTopic: 1
      consumerPerSubscription: 1
      producersPerTopic: 1
      producerRate: 10000
      consumerBacklogSizeGB: 0.005
      backlogDrainRatio: 1.0
      testDurationSeconds: 0.5
      warmupDurationSeconds: 0.5
      """;

  @Test
  void aBacklogIsBuiltAndDrainedWithConsumersPausedOverHttp() throws Exception {
    DistributedWorkers workers =
        DistributedWorkers.connect(List.of(first.client(), second.client()), WorkerRoles.BOTH);
    Path workload = Files.writeString(dir.resolve("backlog.yaml"), BACKLOG_WORKLOAD);
    Path driver = LoopbackDriverFile.write(dir);
    BenchmarkRun run = DistributedRuns.prepare(workload, driver, workers, Duration.ofMillis(500));
    RunReport report = run.execute();

    assertTrue(report.complete(), report.incompleteReason());
    BacklogOutcome backlog = run.backlogOutcome().orElseThrow();
    assertEquals(5_243, backlog.targetMessages());
    assertTrue(backlog.backlogAtDrainStart() >= 5_243, backlog.toString());
    assertTrue(backlog.completed(), backlog.toString());
    // Both workers' consumers paused: the backlog rose to the target, then fell to nothing.
    BacklogTimeline.assertRoseAndDrained(report, 5_000);
    Counters counters = report.counters();

    // The per-worker breakdown covers what the measured figures cover: the warm-up left out.
    JsonNode each = workers.breakdown().get("workers");
    long sent = 0;
    long publishCount = 0;
    for (JsonNode worker : each) {
      assertTrue(worker.get("sent").asLong() > 0, worker.toString());
      sent += worker.get("sent").asLong();
      publishCount += worker.get("publishLatencyMillis").get("count").asLong();
    }
    assertEquals(report.measured().sent(), sent, each.toString());
    assertEquals(report.measured().publishLatency().getTotalCount(), publishCount);
    // Half a second of warm-up at 10,000 msg/s is missing from it.
    assertTrue(counters.sent() - sent > 2_500, counters.sent() + " sent, " + sent + " measured");
  }

  @Test
  void aRequestWithoutTheRightTokenGets401AndNothingElse() throws Exception {
    for (String path :
        List.of(
            "/clock",
            "/worker/initialize",
            "/worker/pause-consumers",
            "/worker/resume-consumers",
            "/worker/adjust-rate",
            "/metrics",
            "/nowhere")) {
      HttpResponse<String> none =
          http.send(
              HttpRequest.newBuilder(first.uri().resolve(path))
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(401, none.statusCode(), path);
      assertEquals("", none.body(), path);
    }
    HttpResponse<String> wrong = get(first.uri().resolve("/metrics"), WorkerProcess.TOKEN + "x");
    assertEquals(401, wrong.statusCode());
    assertEquals("", wrong.body());
    assertEquals(200, get(first.uri().resolve("/metrics"), WorkerProcess.TOKEN).statusCode());
  }

  private HttpResponse<String> get(URI uri, String token) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
