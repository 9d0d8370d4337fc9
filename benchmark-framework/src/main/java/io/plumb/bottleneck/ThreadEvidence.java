package io.plumb.bottleneck;

import io.plumb.stats.ProducerThreadTimes;

/**
 * Where the producer threads' time went over the measured time, summed over threads (each measured
 * on its own host, so shares need no core count): the evidence {@link BottleneckVerdict} weighs.
 *
 * @param wallNanos wall time the producer threads were alive
 * @param sendNanos time inside the driver's send() calls only
 * @param cpuNanos CPU time the threads ran
 * @param runDelayNanos time they were runnable but waited for a core, or -1 when unknown
 * @param hostCpuWaitShare share of the time some task on the producers' hosts waited for a CPU
 *     (Linux's CPU pressure "some"), or NaN when unknown; quoted, never decisive (it counts every
 *     process's waiting, not the producers')
 */
public record ThreadEvidence(
    long wallNanos, long sendNanos, long cpuNanos, long runDelayNanos, double hostCpuWaitShare) {
  /** No producer thread was measured. */
  public static final ThreadEvidence NONE = new ThreadEvidence(0, 0, 0, -1);

  /** Threads' times without the hosts' CPU pressure. */
  public ThreadEvidence(long wallNanos, long sendNanos, long cpuNanos, long runDelayNanos) {
    this(wallNanos, sendNanos, cpuNanos, runDelayNanos, Double.NaN);
  }

  public static ThreadEvidence of(ProducerThreadTimes times, long sendNanos) {
    double pressure =
        times.hostCpuWaitNanos() >= 0 && times.hostWallNanos() > 0
            ? Math.min(1, (double) times.hostCpuWaitNanos() / times.hostWallNanos())
            : Double.NaN;
    return new ThreadEvidence(
        times.wallNanos(), sendNanos, times.cpuNanos(), times.runDelayNanos(), pressure);
  }

  public boolean measured() {
    return wallNanos > 0;
  }

  public boolean runDelayKnown() {
    return runDelayNanos >= 0;
  }

  /** Share of wall time on a core. */
  public double onCpuShare() {
    return share(cpuNanos);
  }

  /** Share of wall time runnable but waiting for a core (NaN when unknown). */
  public double waitedForCpuShare() {
    return runDelayKnown() ? share(runDelayNanos) : Double.NaN;
  }

  /** The CPU the threads got of the CPU they asked for (ran / (ran + waited)), or NaN. */
  public double cpuGotShare() {
    return runDelayKnown() && cpuNanos + runDelayNanos > 0
        ? (double) cpuNanos / (cpuNanos + runDelayNanos)
        : Double.NaN;
  }

  /** Share of wall time inside send(), on or off a core. */
  public double sendShare() {
    return share(sendNanos);
  }

  /**
   * Share of wall time send() kept the threads blocked: time inside send() that was neither on a
   * core nor waiting for one, at most all the time off a core and not waiting (when the run-queue
   * time is unknown, waiting for a core cannot be told apart and counts here too).
   */
  public double sendBlockedShare() {
    long offCpu = wallNanos - cpuNanos - Math.max(0, runDelayNanos);
    return share(Math.max(0, Math.min(sendNanos, offCpu)));
  }

  /** One clause with the figures, e.g. "producer threads got 48% of the CPU they asked for". */
  public String describe() {
    if (!measured()) {
      return "no producer thread times were measured";
    }
    String cpu =
        runDelayKnown()
            ? String.format(
                "producer threads got %.0f%% of the CPU they asked for (ran %.0f%%, waited for a core %.0f%% of their time)",
                100 * cpuGotShare(), 100 * onCpuShare(), 100 * waitedForCpuShare())
            : String.format(
                "producer threads ran %.0f%% of their time (this host does not report time waiting for a core)",
                100 * onCpuShare());
    String host =
        Double.isNaN(hostCpuWaitShare)
            ? ""
            : String.format(
                "; on the host some task waited for a CPU %.0f%% of the time",
                100 * hostCpuWaitShare);
    return cpu
        + String.format(
            "; send() blocked %.0f%% of the time (inside send() %.0f%%)",
            100 * sendBlockedShare(), 100 * sendShare())
        + host;
  }

  private double share(long nanos) {
    return wallNanos > 0 ? Math.min(1, (double) nanos / wallNanos) : 0;
  }
}
