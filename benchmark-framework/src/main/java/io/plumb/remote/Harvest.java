package io.plumb.remote;

import io.plumb.stats.PeriodStats;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.Worker;
import io.plumb.worker.WorkerException;
import io.plumb.worker.WorkerSpecs.Totals;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Gathers the workers' figures into one: periods merged losslessly (histograms travel encoded),
 * each worker's own share kept for the per-worker breakdown, and end-of-run totals merged as sets.
 */
final class Harvest {
  private final WorkerFleet fleet;

  Harvest(WorkerFleet fleet) {
    this.fleet = fleet;
  }

  /** From here on each worker's share counts toward the breakdown: warm-up left out. */
  void startMeasuring() {
    for (RemoteMember member : fleet.all()) {
      member.total = new PeriodStats.Builder();
    }
  }

  PeriodStats takePeriod() {
    fleet.failIfLost();
    PeriodStats.Builder merged = new PeriodStats.Builder();
    // Sequential calls would shift each worker's period by the others' round trips: ask all at
    // once.
    Map<RemoteMember, CompletableFuture<PeriodStats>> periods = new LinkedHashMap<>();
    for (RemoteMember member : fleet.live()) {
      periods.put(
          member, CompletableFuture.supplyAsync(member.worker::takePeriod, fleet.executor()));
    }
    periods.forEach(
        (member, future) -> {
          try {
            PeriodStats period = future.join();
            member.total.add(period);
            merged.add(period);
          } catch (CompletionException e) {
            // What the others sent still counts; the loss stops the run at the next period.
            fleet.lose(member, HttpWorker.describe(e.getCause()));
          }
        });
    return merged.finish();
  }

  /**
   * Acknowledgements join up (each producer lives on one worker), but what consumers received is
   * merged as sets: one subscription's consumers may sit on several workers, and a message the
   * broker delivered to two of them (a redelivery after a rebalance) is one distinct message and
   * one duplicate that neither worker could see on its own.
   *
   * <p>Only every worker's sets together say what was lost: without one worker's, what its
   * consumers received would count as missing, its producers' acknowledgements would vanish and so
   * would the duplicates across it. A worker lost now or earlier therefore fails the call rather
   * than leaving a smaller merge to be judged.
   *
   * @throws WorkerException naming each worker whose sets are missing
   */
  Totals totals() {
    Map<Integer, SequenceRanges> acked = new LinkedHashMap<>();
    Map<Integer, SequenceRanges> failed = new LinkedHashMap<>();
    Map<String, Map<Integer, SequenceRanges>> received = new LinkedHashMap<>();
    long duplicates = 0;
    List<Totals> each = fleet.tolerant(fleet.live(), Worker::totals);
    List<String> missing =
        fleet.all().stream()
            .filter(member -> member.lost != null)
            .map(member -> "worker " + member.name() + " (lost: " + member.lost + ")")
            .toList();
    if (!missing.isEmpty()) {
      throw new WorkerException(
          "the sequence sets of " + String.join(", ", missing) + " are missing");
    }
    for (Totals totals : each) {
      totals
          .ackedByProducer()
          .forEach((id, ranges) -> acked.merge(id, ranges, SequenceRanges::union));
      totals
          .failedByProducer()
          .forEach((id, ranges) -> failed.merge(id, ranges, SequenceRanges::union));
      duplicates += totals.duplicatesAcrossWorkers();
      for (var subscription : totals.receivedBySubscription().entrySet()) {
        Map<Integer, SequenceRanges> merged =
            received.computeIfAbsent(subscription.getKey(), key -> new LinkedHashMap<>());
        for (var producer : subscription.getValue().entrySet()) {
          SequenceRanges before = merged.getOrDefault(producer.getKey(), SequenceRanges.EMPTY);
          duplicates += before.overlap(producer.getValue());
          merged.put(producer.getKey(), before.union(producer.getValue()));
        }
      }
    }
    return new Totals(acked, failed, received, duplicates);
  }
}
