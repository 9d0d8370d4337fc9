package io.plumb.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * With remote workers, the result's own {@code resources.summary.worker} is the coordinator's JVM,
 * which sends nothing: "worker CPU" across runs must be the workers' own.
 */
class RemoteWorkerCpuMetricTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static Metric workerCpu() {
    return Metric.all().stream().filter(m -> m.name().equals("worker CPU")).findFirst().get();
  }

  @Test
  void remoteWorkersCpuIsTheirsNotTheCoordinators() throws Exception {
    JsonNode result =
        MAPPER.readTree(
            """
            {"resources": {
               "workerScope": "the coordinator's JVM: the workers' own are under remoteWorkers",
               "summary": {"worker": {"cpuUserCores": 0.04, "cpuSystemCores": 0.01}},
               "remoteWorkers": {
                 "http://h1:8080": {"summary": {"worker":
                   {"cpuUserCores": 1.2, "cpuSystemCores": 0.3}}},
                 "http://h2:8080": {"summary": {"worker":
                   {"cpuUserCores": 0.9, "cpuSystemCores": 0.1}}}}}}
            """);

    assertEquals(2.5, workerCpu().read(result).getAsDouble(), 1e-9);
  }

  @Test
  void theInProcessWorkerIsThisJvm() throws Exception {
    JsonNode result =
        MAPPER.readTree(
            """
            {"resources": {"summary": {"worker": {"cpuUserCores": 0.7, "cpuSystemCores": 0.2}}}}
            """);

    assertEquals(0.9, workerCpu().read(result).getAsDouble(), 1e-9);
  }
}
