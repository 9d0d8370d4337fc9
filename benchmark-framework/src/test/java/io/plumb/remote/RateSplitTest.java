package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.result.RunReport;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadYaml;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Producers spread over OMB's producer half of the workers; the total rate stays the workload's.
 */
@Tag("host-timing")
class RateSplitTest {
  @TempDir Path dir;

  @Test
  void threeProducersOnTwoProducerWorkersSendTheWorkloadsRateInTotal() throws Exception {
    List<WorkerServer> servers = new ArrayList<>();
    try {
      List<HttpWorker> clients = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        WorkerServer server =
            LoopbackWorkerServers.create(Optional.empty(), Duration.ofSeconds(10));
        server.start();
        servers.add(server);
        clients.add(
            new HttpWorker(
                URI.create("http://127.0.0.1:" + server.port() + "/"), Optional.empty(), null));
      }
      Path workload =
          WorkloadYaml.oneTopic()
              .named("split")
              .messageSize(64)
              .subscriptions(0, 0)
              .producers(3)
              .rate(3000)
              .seconds(2)
              .writeTo(dir.resolve("w.yaml"));
      Path driver = LoopbackDriverFile.write(dir);
      DistributedWorkers workers = DistributedWorkers.connect(clients, WorkerRoles.SPLIT);
      BenchmarkRun run = DistributedRuns.prepare(workload, driver, workers, Duration.ofSeconds(1));
      RunReport report = run.execute();

      assertTrue(report.complete(), report.incompleteReason());
      double rate = report.publishRate();
      JsonNode each = workers.breakdown().get("workers");
      assertTrue(rate > 2700 && rate < 3300, "total publish rate " + rate + ": " + each);
      assertEquals(2, each.get(0).get("producers").asInt(), "producer ids 0 and 2");
      assertEquals(1, each.get(1).get("producers").asInt(), "producer id 1");
      assertEquals(0, each.get(2).get("producers").asInt(), "the consumer half produces nothing");
      assertEquals(0, each.get(3).get("producers").asInt());
      double ratio = each.get(0).get("sent").asDouble() / each.get(1).get("sent").asDouble();
      assertTrue(ratio > 1.7 && ratio < 2.3, "each producer keeps its rate: ratio " + ratio);
    } finally {
      servers.forEach(WorkerServer::close);
    }
  }
}
