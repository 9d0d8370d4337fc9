package io.plumb.remote;

import java.util.function.LongSupplier;

/**
 * A worker's clock relative to the coordinator's, measured NTP-style over the control channel: for
 * each round trip, offset = t_worker - (t_send + t_receive) / 2, which is exact when the request
 * and the answer took equally long and off by at most half the round trip otherwise. The round trip
 * with the smallest time is kept, since queueing only ever adds time: many small probes, so that at
 * least one meets a quiet moment.
 *
 * @param offsetNanos worker clock minus coordinator clock
 * @param uncertaintyNanos half the round trip kept: the true offset lies within ± this
 */
public record ClockOffset(long offsetNanos, long uncertaintyNanos) {
  /**
   * Probes of a measurement whose offset may correct end-to-end latency. Over loopback on a 2-core
   * host, just before a run (its JVMs still warming up), 100 left each offset known to ± 0.3 to 0.4
   * ms, 300 to ± 0.15 to 0.25 ms: the tightest round trip comes with a quiet moment, and more
   * probes meet one. About 0.1 s a worker.
   */
  public static final int ROUNDS = 300;

  /**
   * Probes of a first estimate, or of a later check of an offset already in use: enough to see it
   * drift, for a third of the time.
   */
  public static final int CHECK_ROUNDS = 100;

  /** The better-founded of two measurements of the same clock. */
  public ClockOffset tighter(ClockOffset other) {
    return other.uncertaintyNanos < uncertaintyNanos ? other : this;
  }

  /**
   * This offset, still in use, against a later measurement of the same clock: when their intervals
   * overlap, one unchanged offset explains both and the uncertainty stands; when they do not, the
   * clock has drifted or stepped, and this offset is known only to within the later measurement's
   * interval of it.
   */
  public ClockOffset checkedAgainst(ClockOffset later) {
    long apart = Math.abs(later.offsetNanos - offsetNanos);
    if (apart <= uncertaintyNanos + later.uncertaintyNanos) {
      return this;
    }
    return new ClockOffset(offsetNanos, Math.max(uncertaintyNanos, apart + later.uncertaintyNanos));
  }

  /**
   * @param coordinator the coordinator's clock
   * @param worker one reading of the worker's clock per call, over the channel being measured
   */
  public static ClockOffset measure(LongSupplier coordinator, LongSupplier worker, int rounds) {
    long bestRoundTrip = Long.MAX_VALUE;
    long bestOffset = 0;
    for (int i = 0; i < rounds; i++) {
      long sent = coordinator.getAsLong();
      long reading = worker.getAsLong();
      long received = coordinator.getAsLong();
      long roundTrip = received - sent;
      if (roundTrip < bestRoundTrip) {
        bestRoundTrip = roundTrip;
        // sent + roundTrip / 2 rather than (sent + received) / 2: epoch nanoseconds would overflow.
        bestOffset = reading - (sent + roundTrip / 2);
      }
    }
    return new ClockOffset(bestOffset, (bestRoundTrip + 1) / 2);
  }
}
