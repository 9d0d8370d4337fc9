package io.plumb.coordinator;

/**
 * Splits messages acknowledged but not received by the end of a run into lost and still in flight.
 * A message is called lost when a final read that saw the end did not find it either, or, without
 * one, when waiting longer would not have helped: the drain ended with consumers no longer
 * receiving. Messages missing while consumers were still catching up, or when the run was cut short
 * before draining, are reported as in flight, never as lost.
 */
record DeliveryBalance(long lost, long inFlight) {

  /** How the wait for outstanding deliveries ended. */
  enum DrainOutcome {
    /** Every acknowledged message arrived. */
    COMPLETE,
    /** The drain timed out and no consumer had received anything for a while. */
    STALLED,
    /** The drain timed out while consumers were still receiving. */
    STILL_RECEIVING,
    /** The run stopped early (failure or interruption) without draining. */
    NOT_DRAINED,
    /**
     * After the drain, a final read saw every topic's end: what neither the consumers nor the read
     * contained is lost, whatever the drain said.
     */
    READ_TO_END
  }

  static DeliveryBalance of(long missing, DrainOutcome outcome) {
    return switch (outcome) {
      case COMPLETE, STALLED, READ_TO_END -> new DeliveryBalance(missing, 0);
      case STILL_RECEIVING, NOT_DRAINED -> new DeliveryBalance(0, missing);
    };
  }
}
