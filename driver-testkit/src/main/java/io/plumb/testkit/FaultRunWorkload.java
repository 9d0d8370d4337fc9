package io.plumb.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload of a cluster test's fault run: one topic of one partition, one producer and one
 * subscription of one consumer, messages of 1 KiB at {@code producerRate} a second, {@code
 * warmupSeconds} then {@code measuredSeconds}. One partition keeps what the fault did to one leader
 * and its replicas, and one consumer what a paused or slow reader leaves on the broker.
 *
 * @param more further workload lines, e.g. a backlog to build
 */
public record FaultRunWorkload(
    String name, double producerRate, long warmupSeconds, long measuredSeconds, List<String> more) {

  /** The workload's YAML. */
  public String yaml() {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "name: " + name,
                "topics: 1",
                "partitionsPerTopic: 1",
                "messageSize: 1024",
                "subscriptionsPerTopic: 1",
                "consumerPerSubscription: 1",
                "producersPerTopic: 1",
                "producerRate: " + producerRate));
    lines.addAll(more);
    lines.add("testDurationSeconds: " + measuredSeconds);
    lines.add("warmupDurationSeconds: " + warmupSeconds);
    lines.add("");
    return String.join("\n", lines);
  }

  /** Writes the workload to {@code file} and returns it. */
  public Path writeTo(Path file) throws IOException {
    return Files.writeString(file, yaml());
  }
}
