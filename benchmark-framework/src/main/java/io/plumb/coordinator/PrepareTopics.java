package io.plumb.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * First step of a run: initialise the driver from its file, plan the run's topics and clients, and
 * create the topics. The broker's facts are read again once the topics exist, since replication is
 * a fact of real topics, not of the file.
 */
final class PrepareTopics {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final int TOPICS_PER_CALL = 1_000;
  private static final long PROGRESS_EVERY_NANOS = 5_000_000_000L;

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
    run.findings()
        .driverInitialized(
            driverNameFrom(driverFile, info), info.driverClass(), info.brokerFacts());
    run.findings().headerPlacement(HeaderChoice.choose(run, info.brokerFacts()));
    MessageSizeCheck.check(run, info.brokerFacts());
    BacklogRetentionCheck.check(run, info.brokerFacts());
    RunPlan plan = RunPlan.of(run.workload(), info.topicNamePrefix(), run.tag());
    run.findings().plan(plan);
    List<TopicSpec> topics = plan.topics();
    run.step(
        String.format(
            "creating %d topic(s) of %d partition(s)",
            topics.size(), run.workload().partitionsPerTopic()));
    long start = System.nanoTime();
    long lastProgress = start;
    // In parts, so a long creation shows progress and each part has the worker's whole timeout (a
    // broker on a small host creates a few dozen topics a second).
    for (int from = 0; from < topics.size(); from += TOPICS_PER_CALL) {
      int to = Math.min(topics.size(), from + TOPICS_PER_CALL);
      run.findings().brokerFacts(run.worker().createTopics(topics.subList(from, to)));
      long now = System.nanoTime();
      if (to < topics.size() && now - lastProgress > PROGRESS_EVERY_NANOS) {
        run.step(
            String.format(
                "topics: %,d of %,d created (%.1f s)", to, topics.size(), (now - start) / 1e9));
        lastProgress = now;
      }
    }
    run.step(
        String.format(
            "created %,d topic(s) in %.1f s", topics.size(), (System.nanoTime() - start) / 1e9));
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
