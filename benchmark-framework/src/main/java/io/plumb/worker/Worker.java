package io.plumb.worker;

import io.plumb.resources.ResourceSource;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.PublishTimeline;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the coordinator asks of a worker, in the order of a run. The in-process worker implements it
 * directly; a remote worker is the same calls over HTTP.
 */
public interface Worker extends AutoCloseable {

  String name();

  DriverInfo initializeDriver(DriverSetup setup, int runId);

  /**
   * The heap this worker's topics and clients live in, when the coordinator knows it (the
   * in-process worker's), so a workload too large for it is refused before anything is created.
   */
  default OptionalLong maxHeapBytes() {
    return OptionalLong.empty();
  }

  /**
   * Each remote worker's JVM, by its URL, for the run to sample its CPU, GC, heap and host beside
   * the coordinator's own; empty for the in-process worker, which is the coordinator's JVM.
   */
  default Map<String, ResourceSource> remoteResources() {
    return Map.of();
  }

  /**
   * Creates the run's topics and returns the driver's {@link
   * io.plumb.driver.BenchmarkDriver#brokerFacts() broker facts} read once they exist, so the result
   * records the replication the broker reports for real topics.
   */
  Map<String, String> createTopics(List<TopicSpec> topics);

  /**
   * How consumers bring each producer's send times onto this worker's clock; called before {@link
   * #createConsumers} when producers run on other hosts.
   */
  default void applyClockCorrections(ClockCorrections corrections) {}

  /**
   * Creates the consumers and returns the driver's {@link
   * io.plumb.driver.BenchmarkDriver#brokerFacts() broker facts} read once they exist: a broker
   * whose queues are declared by their consumers reports them (where each queue's leader is) only
   * now.
   */
  Map<String, String> createConsumers(List<ConsumerSpec> consumers);

  void createProducers(List<ProducerSpec> producers, MessageSpec messages);

  /** Every producer sends one readiness probe. */
  void sendProbes();

  /** Probes received so far, by subscription key ({@link WorkerSpecs#subscriptionKey}). */
  Map<String, Long> probesReceived();

  void startLoad(LoadSpec load);

  /**
   * Every producer continues at {@code ratePerProducer} messages per second from its first message
   * not yet due; messages already due keep their intended send times. A worker without producers
   * ignores it.
   */
  void adjustRate(double ratePerProducer);

  /**
   * Stops every consumer's delivery (for backlog builds) without blocking the driver's threads.
   *
   * @throws UnsupportedOperationException when the driver cannot pause consumers
   */
  default void pauseConsumers() {
    throw new UnsupportedOperationException(name() + " worker cannot pause consumers");
  }

  /** Lets paused consumers deliver again. */
  default void resumeConsumers() {
    throw new UnsupportedOperationException(name() + " worker cannot resume consumers");
  }

  /**
   * The warm-up is over: periods taken from now on are measured. Only a worker that keeps figures
   * of its own for the result (the remote ensemble's per-worker breakdown) needs to know.
   */
  default void startMeasuring() {}

  /**
   * Everything recorded since the previous call; the first call also drops what probes recorded.
   */
  PeriodStats takePeriod();

  /** Messages due on the producers' schedules but not sent yet. */
  long scheduleLag();

  void stopLoad();

  Totals totals();

  /**
   * The last period and the totals from one read, for the run's final count once load has stopped.
   * This default reads the period first, so the totals can only be newer: a delivery in between is
   * in the sets but not in the counts, never the reverse (acknowledged and received counts then
   * never exceed what the sets account for).
   */
  default LastCount lastCount() {
    PeriodStats period = takePeriod();
    return new LastCount(period, totals());
  }

  /** The first send failure and first consumer error, if any, for the result. */
  List<String> firstErrors();

  /**
   * Closes producers and consumers, then deletes the run's topics when asked. A second call closes
   * nothing more: the run closes its clients before the final read and deletes topics after it.
   */
  void closeClients(List<String> topicsToDelete);

  /**
   * Why this worker cannot read the run's topics to their end once the run is over ({@link
   * io.plumb.driver.FinalReader}); empty when it can. Only the in-process worker holds the driver
   * the coordinator can ask after the clients are closed.
   */
  default Optional<String> whyNoFinalRead() {
    return Optional.of("the run's workers are remote (--workers)");
  }

  /**
   * Reads each subscription's topic to the end the broker reports, after {@link #closeClients};
   * what it found counts in {@link #totals()} from then on.
   *
   * @throws FinalReads.FinalReadException when a read failed or did not reach its end in time
   */
  default FinalReads.Summary finalRead(List<ConsumerSpec> subscriptions, Duration timeout) {
    throw new UnsupportedOperationException(whyNoFinalRead().orElse(name() + " worker"));
  }

  // ---- for fault plans, which run against the in-process worker only ----

  /** The clock every send and receive is stamped with, read now (epoch nanoseconds). */
  default long clockNow() {
    throw new UnsupportedOperationException(name() + " worker does not share its clock");
  }

  /**
   * The fault targets the driver can name ({@code LeaderLocator#targets}: word to meaning, the
   * first being the one {@code followers} is relative to); empty when it can name none.
   */
  default Map<String, String> nodeTargets() {
    return Map.of();
  }

  /**
   * The node {@code target} names for {@code topic} now, as the broker names it; empty during an
   * election.
   */
  default Optional<String> locate(String target, String topic) {
    throw new UnsupportedOperationException(name() + " worker cannot locate " + target);
  }

  /**
   * Keeps a {@link PublishTimeline} of every send from now on, calling an acknowledgement later
   * than {@code stallNanos} a stall. Called before {@link #startLoad}.
   */
  default void keepPublishTimeline(long stallNanos) {
    throw new UnsupportedOperationException(name() + " worker keeps no publish timeline");
  }

  /**
   * The publish timeline, with the given lost messages counted in the slices of their intended send
   * times; call once the run has drained.
   *
   * @param lostByProducer per producer id, the sequence numbers the run counts as lost: one set per
   *     subscription that missed them, so a message two subscriptions missed counts twice, as in
   *     the run's own {@code lost}
   */
  default PublishTimeline.Snapshot publishTimeline(
      Map<Integer, List<SequenceRanges>> lostByProducer) {
    return PublishTimeline.Snapshot.EMPTY;
  }

  @Override
  void close();
}
