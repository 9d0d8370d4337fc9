package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.worker.WorkerException;
import io.plumb.workload.WorkloadYaml;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Workers and coordinators that die mid-run, as separate JVMs killed with SIGKILL. */
class WorkerFailureTest {
  private static final String LONG_WORKLOAD =
      WorkloadYaml.oneTopic()
          .named("long")
          .topics(2)
          .messageSize(64)
          .rate(1000)
          .seconds(120)
          .text();

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aWorkerKilledMidRunEndsTheRunIncompleteNamingItAndStopsTheOthers() throws Exception {
    try (WorkerProcess survivor = WorkerProcess.startWorker();
        WorkerProcess victim = WorkerProcess.startWorker()) {
      Path token = Files.writeString(dir.resolve("token"), WorkerProcess.TOKEN + "\n");
      Path result = dir.resolve("result.json");
      WorkerProcess coordinator =
          WorkerProcess.start(
              "io.plumb.cli.Main",
              List.of(
                  "--workers",
                  survivor.uri() + "," + victim.uri(),
                  "--worker-roles",
                  "both",
                  "--token-file",
                  token.toString(),
                  "--period",
                  "1",
                  "-d",
                  loopbackDriver().toString(),
                  "-o",
                  result.toString(),
                  workload().toString()),
              false);
      awaitSending(victim);
      victim.kill();
      long killedAt = System.nanoTime();

      int status = coordinator.waitFor(60);
      double secondsToEnd = (System.nanoTime() - killedAt) / 1e9;
      assertEquals(1, status, String.join("\n", coordinator.output()));
      // The workload runs for two minutes; only noticing the loss ends it this soon.
      assertTrue(secondsToEnd < 20, "run ended " + secondsToEnd + " s after the kill");

      JsonNode json = new ObjectMapper().readTree(result.toFile());
      assertFalse(json.get("complete").asBoolean());
      String reason = json.get("incompleteReason").asText();
      assertTrue(reason.contains(victim.uri().toString()), reason);
      assertTrue(json.get("counters").get("sent").asLong() > 0, "what was measured is kept");
      JsonNode workers = json.get("workers").get("workers");
      assertFalse(workers.get(0).get("lost").asBoolean());
      assertFalse(workers.get(0).has("lostReason"), workers.get(0).toString());
      assertTrue(workers.get(1).get("lost").asBoolean());
      // Why it was lost, as the run's reason words it.
      String lostReason = workers.get(1).get("lostReason").asText();
      assertTrue(reason.contains(lostReason), lostReason + " | " + reason);

      // The survivor was stopped and released by the coordinator: it has no run any more.
      HttpResponse<String> after =
          http.send(
              HttpRequest.newBuilder(survivor.uri().resolve("/worker/schedule-lag"))
                  .header("Authorization", "Bearer " + WorkerProcess.TOKEN)
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(500, after.statusCode());
      assertTrue(after.body().contains("no run in progress"), after.body());
    }
  }

  @Test
  void aWorkerStopsItsLoadOnItsOwnWhenTheCoordinatorDies() throws Exception {
    try (WorkerProcess worker = WorkerProcess.startWorker("--lease-timeout", "3")) {
      WorkerProcess coordinator =
          WorkerProcess.start(
              "io.plumb.cli.Main",
              List.of(
                  "--workers",
                  worker.uri().toString(),
                  "-d",
                  loopbackDriver().toString(),
                  "-o",
                  dir.resolve("result.json").toString(),
                  workload().toString()),
              true);
      try {
        awaitSending(worker);
        coordinator.kill();
      } finally {
        coordinator.close();
      }
      worker.awaitOutput("lease expired", 30);
      HttpWorker client = worker.client();
      WorkerException noRun = null;
      try {
        client.scheduleLag();
      } catch (WorkerException e) {
        noRun = e;
      }
      assertTrue(
          noRun != null && noRun.getMessage().contains("no run in progress"),
          "the worker dropped the orphaned run: " + noRun);
      assertTrue(
          worker.output().stream().noneMatch(line -> line.startsWith("closing")),
          "clients and driver closed cleanly: " + worker.output());
    }
  }

  /** Waits (bounded) until the worker's own counters show it sending. */
  private void awaitSending(WorkerProcess worker) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      HttpResponse<String> metrics =
          http.send(
              HttpRequest.newBuilder(worker.uri().resolve("/metrics"))
                  .header("Authorization", "Bearer " + WorkerProcess.TOKEN)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      boolean sending =
          metrics
              .body()
              .lines()
              .anyMatch(
                  line ->
                      line.startsWith("plumb_worker_messages_sent_total ") && !line.endsWith(" 0"));
      if (sending) {
        return;
      }
      Thread.sleep(100);
    }
    throw new TimeoutException("worker " + worker.uri() + " never reported sending");
  }

  private Path loopbackDriver() throws Exception {
    return LoopbackDriverFile.write(dir);
  }

  private Path workload() throws Exception {
    return Files.writeString(dir.resolve("long.yaml"), LONG_WORKLOAD);
  }
}
