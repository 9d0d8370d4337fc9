package io.plumb.fault;

import io.plumb.stats.OutageSlices.Window;
import io.plumb.stats.SendOutages;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one fault's {@link Unavailability} from the run's {@link SendOutages}: the worst partition
 * and producer, the partitions affected, and the goodput from a few seconds before the fault until
 * it was recovered from (or the end).
 */
final class UnavailabilityAnalysis {
  /** How much of the time before a fault its goodput timeline shows. */
  static final long GOODPUT_BEFORE_NANOS = 3_000_000_000L;

  /** How much after the recovery (or the last window's end) it shows. */
  static final long GOODPUT_AFTER_NANOS = 1_000_000_000L;

  private UnavailabilityAnalysis() {}

  /**
   * @param applied when the fault was applied
   * @param spanEnd when the next fault was applied, or {@code Long.MAX_VALUE}
   * @param firstFault when the run's first fault was applied: service times before it set the bar
   * @param recoveredAt when the run was recovered from it, or {@code Long.MAX_VALUE}
   * @param loadEnd when the load stopped ({@code Long.MAX_VALUE} when not known): goodput is shown
   *     only for slices the load covered whole, since after it acknowledgements only trickle in
   *     (and a node let go as the load stops answers its held sends all at once)
   */
  static Unavailability of(
      SendOutages.Snapshot outages,
      long measureStart,
      long applied,
      long spanEnd,
      long firstFault,
      long recoveredAt,
      long loadEnd) {
    long end = outages.latest();
    long bar =
        Math.max(outages.sliceNanos(), slowestServiceBefore(outages, measureStart, firstFault));
    // A fault owns the windows its own sends opened: those starting from one usual service time
    // before it (those sends were in flight when it hit) until one before the next fault, so every
    // window is one fault's. Each slice's unacknowledged sends open a window of their own, so an
    // outage still running when a fault lands counts for it from its own sends only. Taken by any
    // overlap instead, the second of two faults' outage (an every-node power loss after one node's)
    // was charged to the first as well, and an outage that began under an earlier fault was charged
    // in full again to a later one that did nothing (12 s for both; the later one's sends waited
    // 7).
    long startsFrom = applied - bar;
    long startsBefore = spanEnd == Long.MAX_VALUE ? spanEnd : spanEnd - bar;
    Window worstPartition = Window.NONE;
    String worstPartitionName = null;
    int affected = 0;
    for (SendOutages.Keyed partition : outages.partitions()) {
      Window window = partition.slices().longestWindow(startsFrom, startsBefore, end);
      if (window.nanos() > bar) {
        affected++;
      }
      if (window.nanos() > worstPartition.nanos()) {
        worstPartition = window;
        worstPartitionName = partition.name();
      }
    }
    Window worstProducer = Window.NONE;
    String worstProducerName = null;
    for (SendOutages.Keyed producer : outages.producers()) {
      Window window = producer.slices().longestWindow(startsFrom, startsBefore, end);
      if (window.nanos() > worstProducer.nanos()) {
        worstProducer = window;
        worstProducerName = producer.name();
      }
    }
    long shownUntil =
        recoveredAt != Long.MAX_VALUE
            ? Math.max(recoveredAt, Math.max(worstPartition.end(), worstProducer.end()))
            : end;
    return new Unavailability(
        seconds(worstPartition),
        worstPartitionName,
        affected,
        !worstPartition.open(),
        bar / 1e9,
        seconds(worstProducer),
        worstProducerName,
        !worstProducer.open(),
        outages.sliceNanos() / 1e9,
        goodput(
            outages,
            measureStart,
            applied - GOODPUT_BEFORE_NANOS,
            Math.min(shownUntil + GOODPUT_AFTER_NANOS, Math.min(end, loadEnd)),
            Math.min(end, loadEnd)));
  }

  private static Double seconds(Window window) {
    return window == Window.NONE ? null : window.nanos() / 1e9;
  }

  /**
   * The slowest service time among acknowledgements of the measured phase completed before {@code
   * firstFault}: warm-up's first sends (connections, metadata) would set the bar far too high.
   */
  private static long slowestServiceBefore(
      SendOutages.Snapshot outages, long measureStart, long firstFault) {
    long slowest = 0;
    long[] service = outages.slowestService();
    for (int i = 0; i < service.length; i++) {
      long sliceStart = outages.goodputOrigin() + i * SendOutages.GOODPUT_SLICE_NANOS;
      if (sliceStart + SendOutages.GOODPUT_SLICE_NANOS > firstFault) {
        break;
      }
      if (sliceStart >= measureStart) {
        slowest = Math.max(slowest, service[i]);
      }
    }
    return slowest;
  }

  /**
   * The goodput slices from the one holding {@code from} to the one holding {@code until}; when
   * {@code until} is {@code acknowledgementsEnd} (the last acknowledgement, or the load's end), the
   * slice holding it is left out: only part of it had acknowledgements to count, so its rate would
   * read as a dip the broker never had.
   */
  private static Unavailability.Goodput goodput(
      SendOutages.Snapshot outages,
      long measureStart,
      long from,
      long until,
      long acknowledgementsEnd) {
    long slice = SendOutages.GOODPUT_SLICE_NANOS;
    long[] acknowledged = outages.acknowledged();
    long first = Math.max(0, Math.floorDiv(from - outages.goodputOrigin(), slice));
    long holdingUntil = Math.floorDiv(until - outages.goodputOrigin(), slice);
    long last =
        Math.min(
            acknowledged.length, until >= acknowledgementsEnd ? holdingUntil : holdingUntil + 1);
    List<Double> rates = new ArrayList<>();
    for (long i = first; i < last; i++) {
      rates.add(acknowledged[(int) i] / (slice / 1e9));
    }
    double fromSeconds = (outages.goodputOrigin() + first * slice - measureStart) / 1e9;
    return new Unavailability.Goodput(fromSeconds, slice / 1e9, rates);
  }
}
