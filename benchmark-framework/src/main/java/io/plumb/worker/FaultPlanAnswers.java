package io.plumb.worker;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.LeaderLocator;
import io.plumb.load.ProducerTask;
import io.plumb.load.WorkerClock;
import io.plumb.stats.PublishTimeline;
import io.plumb.stats.SequenceRanges;
import io.plumb.stats.StatsCollector;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a fault plan asks of the in-process worker: its clock, the driver's leaders and the publish
 * timeline. Only {@link LocalWorker} can answer, since the plan acts on this host's cluster.
 */
final class FaultPlanAnswers {
  private final WorkerClock clock;
  private final StatsCollector stats;
  private final List<ProducerTask> producers;
  private final Supplier<BenchmarkDriver> driver;

  /**
   * @param producers the worker's producers, read when asked: they are created after this
   * @param driver the worker's driver when asked: none before initialisation or after closing
   */
  FaultPlanAnswers(
      WorkerClock clock,
      StatsCollector stats,
      List<ProducerTask> producers,
      Supplier<BenchmarkDriver> driver) {
    this.clock = clock;
    this.stats = stats;
    this.producers = producers;
    this.driver = driver;
  }

  /** See {@link Worker#clockNow}. */
  long clockNow() {
    return clock.now();
  }

  /** See {@link Worker#nodeTargets}. */
  Map<String, String> nodeTargets() {
    return driver.get() instanceof LeaderLocator locator ? locator.targets() : Map.of();
  }

  /** See {@link Worker#locate}. */
  Optional<String> locate(String target, String topic) {
    try {
      return ((LeaderLocator) driver.get()).locate(target, topic);
    } catch (Exception e) {
      throw new WorkerException(
          "asking the broker for the " + target + " of " + topic + ": " + e, e);
    }
  }

  /** See {@link Worker#keepPublishTimeline}. */
  void keepPublishTimeline(long stallNanos) {
    stats.keepTimeline(stallNanos);
  }

  /** See {@link Worker#publishTimeline}. */
  PublishTimeline.Snapshot publishTimeline(Map<Integer, List<SequenceRanges>> lostByProducer) {
    PublishTimeline.Snapshot timeline = stats.inspect((publish, recorders) -> publish.timeline());
    for (ProducerTask producer : producers) {
      for (SequenceRanges lost : lostByProducer.getOrDefault(producer.producerId(), List.of())) {
        lost.forEach(sequence -> timeline.addLost(producer.intendedTime(sequence)));
      }
    }
    return timeline;
  }
}
