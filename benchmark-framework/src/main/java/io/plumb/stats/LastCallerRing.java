package io.plumb.stats;

/**
 * The calling thread's ring, remembered for the thread that called last. A driver calls one
 * listener from one thread for long stretches (its consumer's or its network thread), and the
 * {@link ThreadLocal} lookup behind {@link StatsCollector#ring()} took about 14% of a loopback
 * producer's time when made for every message.
 *
 * <p>Safe from any number of threads: the thread and its ring are read as one immutable pair, so a
 * caller only ever gets a ring of its own (each ring has one writer). A thread that is given a new
 * ring after its first call (a producer loop's larger one) keeps writing to its first, which the
 * collector drains all the same.
 */
public final class LastCallerRing {
  private record Owned(Thread thread, EventRing ring) {}

  private static final Owned NOBODY = new Owned(null, null);

  private final StatsCollector stats;
  private Owned last = NOBODY;

  public LastCallerRing(StatsCollector stats) {
    this.stats = stats;
  }

  public EventRing get() {
    Owned owned = last;
    Thread current = Thread.currentThread();
    if (owned.thread() != current) {
      owned = new Owned(current, stats.ring());
      last = owned;
    }
    return owned.ring();
  }
}
