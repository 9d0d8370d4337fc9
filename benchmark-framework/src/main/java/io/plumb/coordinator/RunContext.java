package io.plumb.coordinator;

import io.plumb.worker.Worker;
import io.plumb.workload.Workload;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the steps of one run share: its inputs, what it measures, what it has learnt so far and its
 * abort signal.
 *
 * @param runId seeds the payloads, so two runs never send the same bytes
 * @param tag part of every topic name, so concurrent or leftover runs never share a topic
 * @param errors problems met on the way that did not end the run, for the result
 */
record RunContext(
    Workload workload,
    Path driverFile,
    Worker worker,
    RunOptions options,
    RunListener listener,
    Instant start,
    int runId,
    String tag,
    Measurement measurement,
    SetupFigures setupFigures,
    List<String> errors,
    RunFindings findings,
    AbortSignal abortSignal) {
  private static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

  /** A run starting now, with a fresh id and tag. */
  static RunContext begin(
      Workload workload, Path driverFile, Worker worker, RunOptions options, RunListener listener) {
    SecureRandom random = new SecureRandom();
    StringBuilder tag = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      tag.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
    }
    return new RunContext(
        workload,
        driverFile,
        worker,
        options,
        listener,
        Instant.now(),
        random.nextInt(),
        tag.toString(),
        new Measurement(workload.subscriptionsPerTopic()),
        new SetupFigures(),
        new ArrayList<>(),
        new RunFindings(workload, driverFile.getFileName().toString()),
        new AbortSignal());
  }

  void step(String message) {
    listener.step(message);
  }

  static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
