package io.plumb.result;

import java.util.Map;

/**
 * The final read after the run ({@link io.plumb.driver.FinalReader}): whether it ran, and what it
 * found. When it ran, loss was judged against it: a message is lost only when the broker
 * acknowledged it and neither the consumers nor this read contained it, and nothing is in flight.
 *
 * @param ran whether every subscription was read to the end its broker reported
 * @param whyNot why it did not run (or failed), in a few words; null when it ran
 * @param seconds how long the read took (also when it failed)
 * @param messagesRead every message the read handed over
 * @param acknowledgedFoundOnlyByRead acknowledged messages the consumers never received but the
 *     read found on the broker, summed over subscriptions: late, not lost
 * @param acknowledgedNotInRead acknowledged messages that no read of their topic contained, each
 *     counted once, whether or not a consumer had received it: what the broker no longer held (a
 *     power loss's unsynced writes). By sequence number, so duplicates in the log, probes and sends
 *     that failed yet were written never stand in for an acknowledged message that is gone, as they
 *     did in the acknowledged count less {@code messagesRead}. A loss only where the read starts at
 *     a log's first message: a queue, or a topic that deletes what was consumed, hands over what
 *     its consumers left, and every message they took counts here too
 * @param endByTopic each topic's end as its driver reported it when the read started
 */
public record FinalReadFigures(
    boolean ran,
    String whyNot,
    double seconds,
    long messagesRead,
    long acknowledgedFoundOnlyByRead,
    long acknowledgedNotInRead,
    Map<String, String> endByTopic) {

  public FinalReadFigures {
    endByTopic = endByTopic == null ? Map.of() : endByTopic;
  }

  /** No read: loss was judged by the drain alone, for {@code why}. */
  public static FinalReadFigures notRun(String why) {
    return new FinalReadFigures(false, why, 0, 0, 0, 0, Map.of());
  }

  /** Runs that never reached the point of reading (reports built by hand, search probes). */
  public static final FinalReadFigures NOT_ASKED = notRun("not asked");
}
