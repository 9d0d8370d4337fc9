package io.plumb.fault;

/**
 * What went wrong before the first fault's window (warm-up included): the part of the run's own
 * counters that no fault caused, so that these figures and every fault's add up to the run's.
 *
 * @param publishFailures sends that failed, of messages due before the first fault's window
 * @param slowPublishes sends acknowledged later than the plan's stall threshold, likewise
 * @param acknowledgedLost acknowledged messages lost when no fault was applied; 0 otherwise, since
 *     a loss is charged to the first fault that came after the message (see {@link FaultAnalysis})
 * @param duplicates deliveries of a message already received, in the warm-up and in periods before
 *     the first fault
 * @param outOfOrder out-of-order first deliveries, likewise
 */
public record BeforeFirstFault(
    long publishFailures,
    long slowPublishes,
    long acknowledgedLost,
    long duplicates,
    long outOfOrder) {

  public static final BeforeFirstFault NOTHING = new BeforeFirstFault(0, 0, 0, 0, 0);

  /** These figures with the warm-up's duplicates and reorderings, which no period carries. */
  public BeforeFirstFault plusWarmUp(long warmUpDuplicates, long warmUpOutOfOrder) {
    return new BeforeFirstFault(
        publishFailures,
        slowPublishes,
        acknowledgedLost,
        duplicates + warmUpDuplicates,
        outOfOrder + warmUpOutOfOrder);
  }

  public boolean anything() {
    return publishFailures + slowPublishes + acknowledgedLost + duplicates + outOfOrder > 0;
  }
}
