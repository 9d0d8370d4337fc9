package io.plumb.coordinator;

import io.plumb.bottleneck.ThreadEvidence;
import io.plumb.result.PeriodSample;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.ProducerThreadTimes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What the coordinator has gathered: every period of the measured phase (for the timelines), their
 * lossless sum, and run-wide counts (warm-up included) for the balance of sent against received.
 */
final class Measurement {
  private final List<PeriodSample> samples = new ArrayList<>();
  private final PeriodStats.Builder measured = new PeriodStats.Builder();
  private final PeriodStats.Builder wholeRun = new PeriodStats.Builder();
  private double measuredSeconds;
  private final int subscriptionsPerTopic;

  // The periods' figures as they came are held up to a budget for the whole process, the oldest
  // released first: a run that fits reads them as before, and a longer one (or many) keeps the
  // rest encoded instead of filling the heap the generator shares in a local run (soft references
  // would fill it, then clear it in a full collection while measuring).
  private final HeldPeriods held;

  Measurement(int subscriptionsPerTopic) {
    this(subscriptionsPerTopic, HeldPeriods.PROCESS);
  }

  Measurement(int subscriptionsPerTopic, HeldPeriods held) {
    this.subscriptionsPerTopic = subscriptionsPerTopic;
    this.held = held;
  }

  /**
   * Adds a period; returns the backlog after it: messages acknowledged or still awaiting their
   * acknowledgement that not every subscription has received yet (see {@link
   * PeriodStats#backlogAdded}).
   */
  long add(Phase phase, PeriodStats stats, double seconds) {
    wholeRun.add(stats);
    long backlog = Math.max(0, wholeRun.backlogAdded(subscriptionsPerTopic));
    if (phase == Phase.MEASURE) {
      keep(new PeriodSample(stats, seconds, backlog));
      measuredSeconds += seconds;
    }
    if (phase != Phase.WARM_UP) {
      // Deliveries during the drain belong to messages produced while measuring.
      measured.add(stats);
    }
    return backlog;
  }

  private void keep(PeriodSample sample) {
    samples.add(sample);
    held.add(sample);
  }

  List<PeriodSample> samples() {
    return samples;
  }

  PeriodStats measured() {
    return measured.build();
  }

  PeriodStats wholeRun() {
    return wholeRun.build();
  }

  double measuredSeconds() {
    return measuredSeconds;
  }

  /** Time producer threads spent inside drivers' send() during the measured phase. */
  long measuredNanosInSend() {
    return sumOverSamples(PeriodStats::producerBlockedNanos);
  }

  /** Where producer threads' time went during the measured phase. */
  ThreadEvidence measuredProducerThreads() {
    ProducerThreadTimes times = ProducerThreadTimes.NONE;
    for (PeriodSample sample : samples) {
      times = times.plus(sample.counts().producerThreads());
    }
    return ThreadEvidence.of(times, measuredNanosInSend());
  }

  /** Acknowledgements received during the measured phase's periods. */
  long measuredAcknowledged() {
    return sumOverSamples(PeriodStats::acknowledged);
  }

  /** Sends during the measured phase only (the drain sends nothing). */
  long measuredSent() {
    return sumOverSamples(PeriodStats::sent);
  }

  // The measured periods' samples, not the measured builder: that one holds the drain's too.
  private long sumOverSamples(ToLongFunction<PeriodStats> count) {
    long sum = 0;
    for (PeriodSample sample : samples) {
      sum += count.applyAsLong(sample.counts());
    }
    return sum;
  }
}
