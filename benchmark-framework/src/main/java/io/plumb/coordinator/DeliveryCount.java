package io.plumb.coordinator;

import io.plumb.result.Counters;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.LastCount;
import io.plumb.worker.TotalsMissingException;
import io.plumb.worker.WorkerSpecs.Totals;
import java.util.List;
import java.util.Map;

/** The run's message counters: what was sent, acknowledged, received, lost and duplicated. */
final class DeliveryCount {

  private DeliveryCount() {}

  /**
   * Acknowledged messages not yet received, summed over subscriptions: counted by sequence number,
   * so a message whose send failed but that arrived anyway never stands in for one acknowledged and
   * missing.
   */
  static long outstanding(RunPlan plan, Totals totals) {
    long[] missing = {0};
    forEachMissing(
        plan, totals, (subscription, producer, sequences) -> missing[0] += sequences.size());
    return missing[0];
  }

  /** Told the acknowledged messages of one producer that one subscription never received. */
  interface MissingSink {
    void missing(String subscription, int producer, SequenceRanges sequences);
  }

  /**
   * Hands {@code sink} every subscription's missing messages, producer by producer: only the
   * producers of the subscription's own topic, so a message of topic B never counts as missing for
   * a subscription of topic A. The run's counters and every per-fault figure come from here.
   */
  static void forEachMissing(RunPlan plan, Totals totals, MissingSink sink) {
    Map<String, List<Integer>> producersByTopic = plan.producerIdsByTopic();
    for (Map.Entry<String, String> entry : plan.topicOfSubscription().entrySet()) {
      for (int producer : producersByTopic.getOrDefault(entry.getValue(), List.of())) {
        SequenceRanges missing = totals.missing(entry.getKey(), producer);
        if (missing.size() > 0) {
          sink.missing(entry.getKey(), producer, missing);
        }
      }
    }
  }

  /**
   * Messages received although their send failed or was never acknowledged, summed over
   * subscriptions: a broker that stored a write whose acknowledgement was lost in a fault.
   */
  static long receivedUnacknowledged(RunPlan plan, Totals totals) {
    long count = 0;
    Map<String, List<Integer>> producersByTopic = plan.producerIdsByTopic();
    for (Map.Entry<String, String> entry : plan.topicOfSubscription().entrySet()) {
      for (int producer : producersByTopic.getOrDefault(entry.getValue(), List.of())) {
        var received = totals.received(entry.getKey(), producer);
        count += received.size() - received.overlap(totals.acked(producer));
      }
    }
    return count;
  }

  /**
   * @param loadStarted false when the run ended before any load: nothing was sent, so the workers'
   *     sequence sets (millions of producers' worth in a many-topic run) are not asked for
   * @throws TotalsMissingException when a worker's sets are missing, its period already added to
   *     the run's measurement
   */
  static Counters of(RunContext run, DeliveryBalance.DrainOutcome outcome, boolean loadStarted) {
    RunPlan plan = loadStarted ? run.findings().plan() : null;
    Totals totals = null;
    if (plan != null) {
      // A run cut short has no final period: the counts would come from the last period taken
      // and the loss from sets read later. One read gives both, so they add up.
      LastCount last;
      try {
        last = run.worker().lastCount();
      } catch (TotalsMissingException e) {
        // The counts stay the run's; the caller writes them without judging loss.
        run.measurement().add(Phase.DRAIN, e.period(), 0);
        throw e;
      }
      run.measurement().add(Phase.DRAIN, last.period(), 0);
      totals = last.totals();
    }
    PeriodStats whole = run.measurement().wholeRun();
    long missing = plan == null ? 0 : outstanding(plan, totals);
    // Workers count the duplicates their own consumers receive as they come; those that reached
    // consumers on two workers show only when the coordinator merges what each received.
    long acrossWorkers = totals == null ? 0 : totals.duplicatesAcrossWorkers();
    DeliveryBalance balance = DeliveryBalance.of(missing, outcome);
    return new Counters(
        whole.sent(),
        whole.acknowledged(),
        whole.failed(),
        whole.received(),
        balance.lost(),
        balance.inFlight(),
        whole.duplicates() + acrossWorkers,
        whole.outOfOrder(),
        whole.consumerErrors(),
        whole.untimedAcknowledgements(),
        whole.negativeEndToEnd(),
        whole.foreign(),
        plan == null ? 0 : receivedUnacknowledged(plan, totals));
  }
}
