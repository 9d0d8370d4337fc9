package io.plumb.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * First step of a run: initialise the driver from its file, plan the run's topics and clients, and
 * create the topics. The broker's facts are read again once the topics exist, since replication is
 * a fact of real topics, not of the file.
 */
final class PrepareTopics {
  private static final YAMLMapper YAML = new YAMLMapper();

  private PrepareTopics() {}

  static void run(RunContext run) {
    Path driverFile = run.driverFile();
    run.step("initialising driver " + driverFile);
    DriverInfo info =
        run.worker()
            .initializeDriver(
                new DriverSetup(
                    driverFile.toString(), readText(driverFile), run.options().driverOverrides()),
                run.runId());
    run.driverName(driverNameFrom(driverFile, info));
    run.driverClass(info.driverClass());
    run.brokerFacts(info.brokerFacts());
    RunPlan plan = RunPlan.of(run.workload(), info.topicNamePrefix(), run.tag());
    run.plan(plan);
    run.step(
        String.format(
            "creating %d topic(s) of %d partition(s)",
            plan.topics().size(), run.workload().partitionsPerTopic()));
    run.brokerFacts(run.worker().createTopics(plan.topics()));
  }

  /** The file's {@code name} field, as OMB shows it; the driver class when the file has none. */
  private static String driverNameFrom(Path file, DriverInfo info) {
    try {
      JsonNode tree = YAML.readTree(file.toFile());
      if (tree != null && tree.hasNonNull("name")) {
        return tree.get("name").asText();
      }
    } catch (IOException e) {
      // fall through to the class name
    }
    return info.driverClass();
  }

  private static String readText(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
