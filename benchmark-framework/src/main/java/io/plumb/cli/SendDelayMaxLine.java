package io.plumb.cli;

import io.plumb.resources.HostStalls;
import java.util.Locale;
import java.util.Optional;

/**
 * The console's word on whose the longest send delay is, where the run can tell: a producer thread
 * that waited for its core at once about as long as that delay (another thread of the host, or the
 * kernel, had the core) accounts for it without the generator. A user who sees a millisecond in the
 * send delay's tail needs that before blaming the load generator, or the broker behind it.
 */
final class SendDelayMaxLine {
  /** A shorter maximum is not worth a line: the threshold of a host stall. */
  static final double MIN_MILLIS = HostStalls.STALL_NANOS / 1e6;

  /**
   * How much of the maximum the wait must cover to account for it: the delay also holds the send
   * that was late and the loop's turn back to it, a few microseconds.
   */
  static final double COVERED_SHARE = 0.9;

  private SendDelayMaxLine() {}

  static Optional<String> describe(double sendDelayMaxMillis, double longestCoreWaitMillis) {
    if (sendDelayMaxMillis < MIN_MILLIS
        || longestCoreWaitMillis < COVERED_SHARE * sendDelayMaxMillis) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "Send delay   max %.2f ms, and a producer thread waited %.2f ms at once for its core:"
                + " a delay that long is the host's (another thread or the kernel had the core),"
                + " not the generator's",
            sendDelayMaxMillis,
            longestCoreWaitMillis));
  }
}
