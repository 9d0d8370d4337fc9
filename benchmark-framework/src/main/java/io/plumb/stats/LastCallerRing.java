package io.plumb.stats;

/**
 * The calling thread's ring, remembered for the thread that called last. A driver calls one
 * listener from one thread for long stretches (its consumer's or its network thread), and the
 * {@link ThreadLocal} lookup behind {@link StatsCollector#ring()} took about 14% of a loopback
 * producer's time when made for every message.
 *
 * <p>Safe from any number of threads without a lock or an allocation: a ring names its only writer
 * in a final field, so a caller that reads another thread's ring here sees so and looks up its own.
 * A thread that is given a new ring after its first call (a producer loop's larger one) keeps
 * writing to its first, which the collector drains all the same.
 */
public final class LastCallerRing {
  private final StatsCollector stats;
  // Written without synchronisation by whichever thread missed last; any value read is a whole
  // ring, checked against the caller before use.
  private EventRing last;

  public LastCallerRing(StatsCollector stats) {
    this.stats = stats;
  }

  public EventRing get() {
    EventRing ring = last;
    if (ring == null || !ring.ownedBy(Thread.currentThread())) {
      ring = stats.ring();
      last = ring;
    }
    return ring;
  }
}
