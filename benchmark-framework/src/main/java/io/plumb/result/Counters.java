package io.plumb.result;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Message counts over the whole run (warm-up included), so that every message sent is accounted
 * for. Taken as one snapshot: {@code acknowledged + failed + unacknowledged() == sent} always
 * holds, also for a run cut short.
 *
 * @param lost acknowledged by the broker but never received, summed over subscriptions: missing
 *     when the drain ended with consumers no longer receiving
 * @param inFlight acknowledged but not yet received when the run ended while consumers were still
 *     catching up (or the run was cut short): late, not known to be lost
 * @param duplicated received more than once
 * @param outOfOrder first deliveries that reached their consumer after a later message of the same
 *     producer on the same partition (judged per consumer, in the order messages arrived)
 * @param untimedAcknowledgements completions whose actual send time was no longer held (more in
 *     flight than the producer's ring), so service time and send delay were not recorded for them
 * @param negativeEndToEnd end-to-end values below zero (clocks disagreeing), recorded as zero
 * @param foreign messages without this run's header (another run's messages on a reused topic)
 * @param receivedUnacknowledged received although the send failed or was never acknowledged (a
 *     broker that kept a write whose acknowledgement a fault cut off), summed over subscriptions
 */
public record Counters(
    long sent,
    long acknowledged,
    long failed,
    long received,
    long lost,
    long inFlight,
    long duplicated,
    long outOfOrder,
    long consumerErrors,
    long untimedAcknowledgements,
    long negativeEndToEnd,
    long foreign,
    long receivedUnacknowledged) {

  /** Sent but neither acknowledged nor failed when the run ended (none after a full drain). */
  @JsonProperty("unacknowledged")
  public long unacknowledged() {
    return Math.max(0, sent - acknowledged - failed);
  }
}
