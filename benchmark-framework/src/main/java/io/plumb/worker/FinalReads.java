package io.plumb.worker;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.FinalReader;
import io.plumb.finalread.FinalReadSink;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads each subscription's topic to the end its broker reports, through the driver's {@link
 * FinalReader}, and keeps per subscription the sequence numbers each producer had there.
 */
public final class FinalReads {
  private final Map<String, Map<Integer, SequenceRanges>> bySubscription;
  private final Summary summary;

  /**
   * @param messagesRead every message the reads handed over
   * @param endByTopic the end each topic's read reached, as the driver named it
   */
  public record Summary(long messagesRead, Map<String, String> endByTopic) {}

  private FinalReads(Map<String, Map<Integer, SequenceRanges>> bySubscription, Summary summary) {
    this.bySubscription = bySubscription;
    this.summary = summary;
  }

  /** Why {@code driver} cannot read its topics to their end; empty when it can. */
  public static Optional<String> whyNot(BenchmarkDriver driver) {
    if (!(driver instanceof FinalReader reader)) {
      return Optional.of(
          (driver == null ? "no driver" : driver.getClass().getSimpleName())
              + " cannot read a topic to its end");
    }
    return reader.whyNoFinalRead();
  }

  /**
   * Reads every subscription in turn, all within {@code timeout}.
   *
   * @throws FinalReadException when a read failed or did not reach its end in time
   */
  public static FinalReads read(
      BenchmarkDriver driver, int runId, List<ConsumerSpec> subscriptions, Duration timeout) {
    FinalReader reader = (FinalReader) driver;
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Map<Integer, SequenceRanges>> sets = new LinkedHashMap<>();
    Map<String, String> ends = new LinkedHashMap<>();
    long read = 0;
    for (ConsumerSpec spec : subscriptions) {
      String key = WorkerSpecs.subscriptionKey(spec.topic(), spec.subscription());
      if (sets.containsKey(key)) {
        continue;
      }
      Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
      FinalReadSink sink = new FinalReadSink(runId);
      String end;
      try {
        end = reader.readToEnd(spec.topic(), spec.subscription(), sink, left);
      } catch (Exception e) {
        throw new FinalReadException("reading " + key + " to its end: " + e, e);
      }
      if (sink.failure() != null) {
        throw new FinalReadException(
            "reading " + key + " to its end: " + sink.failure(), sink.failure());
      }
      sets.put(key, sink.sequences());
      // A log is read whole for each of its subscriptions: the first read's end names it.
      ends.putIfAbsent(spec.topic(), end);
      read += sink.messagesRead();
    }
    return new FinalReads(sets, new Summary(read, Collections.unmodifiableMap(ends)));
  }

  public Map<String, Map<Integer, SequenceRanges>> bySubscription() {
    return bySubscription;
  }

  public Summary summary() {
    return summary;
  }

  /** A final read that failed: the run keeps judging loss by the drain. */
  public static final class FinalReadException extends RuntimeException {
    FinalReadException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
