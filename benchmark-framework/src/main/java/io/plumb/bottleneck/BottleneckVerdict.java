package io.plumb.bottleneck;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who limited a run or a search probe, decided the same way for both: whether producers kept their
 * schedule, and when they did not, whether this host could not generate the load or the broker
 * pushed back. The reason names the evidence in one line.
 *
 * <p>Producers fell behind when they sent under 98% of the target and ended more than 50 ms of
 * messages (and 20) behind it (a thread descheduled just before the end shortens the count but
 * catches up at once; one that cannot keep up stays behind), or when their sends were grossly late
 * (send delay p50 over 50 ms or p99 over 1 s). Then the producer threads' own time decides (see
 * {@link ThreadEvidence}): the share of their wall time they <i>waited for a core</i> (runnable,
 * not running: Linux's per-thread run-queue time) against the share <i>send() kept them blocked</i>
 * (inside the driver's send(), neither running nor waiting for a core):
 *
 * <ul>
 *   <li><b>generator-bound</b> when the threads were off a core under 20% of the time (they ran all
 *       along: the work per message, Plumb's and the client library's, is more than this host's
 *       threads can do at this rate), or when they waited for a core at least twice as long as
 *       send() blocked them (they wanted the CPU and did not get it: other processes, too few
 *       cores, steal);
 *   <li><b>pushed back by the broker</b> when send() blocked them at least twice as long as they
 *       waited for a core (the client's buffer was full or it waited for the broker), or when the
 *       broker acknowledged under 98% of what was sent (acknowledgements slowed) and the threads'
 *       own time does not say generator-bound;
 *   <li><b>undecided</b> otherwise: both causes within a factor of two of each other, slow
 *       acknowledgements while the threads' own time says generator-bound (threads that ran all
 *       along or waited for a core can starve the client's I/O thread, which slows acknowledgements
 *       as a slow broker would), or no thread times (then the reason says so). Where a host does
 *       not report run-queue time, off-core time outside send() counts as waiting for a core and
 *       off-core time inside send() cannot be told apart (undecided when it is most).
 * </ul>
 *
 * The hosts' CPU pressure (the share of time some task waited for a CPU), the worker's CPU share of
 * its host and the steal are quoted when sampled; they do not decide (they count every process, not
 * the producer threads).
 *
 * @param kind the finding
 * @param reason one sentence with the figures that decided it
 * @param figures those figures by name, for the result JSON
 */
public record BottleneckVerdict(Kind kind, String reason, Map<String, Double> figures) {

  /** Sent under this share of the target counts as short of the rate (runs and probes alike). */
  public static final double MIN_SEND_SHARE_OF_TARGET = 0.98;

  /** Messages behind schedule at the end, in seconds of the rate, that count as behind. */
  public static final double MAX_LAG_SECONDS = 0.05;

  /** At low rates a handful of messages behind is noise. */
  public static final long MIN_WORRYING_LAG_MESSAGES = 20;

  public static final long MAX_SEND_DELAY_P50_NANOS = 50_000_000;
  public static final long MAX_SEND_DELAY_P99_NANOS = 1_000_000_000;

  /** Threads off a core less than this share of their time ran all along: they were CPU-bound. */
  public static final double MIN_OFF_CPU_SHARE = 0.2;

  /** One cause must hold the threads this many times longer than the other to decide. */
  public static final double DOMINANCE = 2;

  public enum Kind {
    /** Producers kept their schedule: the figures measure the driver and broker. */
    KEPT_SCHEDULE("kept schedule"),
    /** Producers fell behind while free to send: the host could not generate the load. */
    GENERATOR_BOUND("generator-bound"),
    /** Producers fell behind because publish calls blocked or acknowledgements slowed. */
    BROKER_PUSHBACK("pushed back by the broker"),
    /** Producers fell behind and the evidence points both ways (or is missing). */
    UNDECIDED("undecided");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  public BottleneckVerdict {
    figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures)); // in the order decided
  }

  public boolean keptSchedule() {
    return kind == Kind.KEPT_SCHEDULE;
  }

  public static BottleneckVerdict judge(ScheduleEvidence e) {
    Map<String, Double> figures = new LinkedHashMap<>();
    figures.put("targetRateMsgPerSec", e.targetRate());
    figures.put("sentRateMsgPerSec", e.achievedRate());
    figures.put("acknowledgedRateMsgPerSec", e.acknowledgedRate());
    if (e.lagAtEnd() >= 0) {
      figures.put("messagesBehindScheduleAtEnd", (double) e.lagAtEnd());
    }
    figures.put("sendDelayP50Ms", e.sendDelayP50Nanos() / 1e6);
    figures.put("sendDelayP99Ms", e.sendDelayP99Nanos() / 1e6);
    ThreadEvidence t = e.threads();
    if (t.measured()) {
      figures.put("producerThreadOnCpuPercent", t.onCpuShare() * 100);
      if (t.runDelayKnown()) {
        figures.put("producerThreadWaitedForCpuPercent", t.waitedForCpuShare() * 100);
        figures.put("producerThreadCpuGotOfAskedPercent", t.cpuGotShare() * 100);
      }
      figures.put("producerThreadTimeInSendPercent", t.sendShare() * 100);
      figures.put("producerThreadBlockedInSendPercent", t.sendBlockedShare() * 100);
      if (!Double.isNaN(t.hostCpuWaitShare())) {
        figures.put("hostCpuPressureSomePercent", t.hostCpuWaitShare() * 100);
      }
    }
    if (!Double.isNaN(e.workerCpuShare())) {
      figures.put("workerCpuPercentOfHost", e.workerCpuShare() * 100);
    }
    if (!Double.isNaN(e.stealShare())) {
      figures.put("stealPercent", e.stealShare() * 100);
    }
    double rate = e.targetRate();
    boolean shortOfRate = e.achievedRate() < rate * MIN_SEND_SHARE_OF_TARGET;
    // Without a lag figure, a shortfall alone decides.
    boolean lagging =
        e.lagAtEnd() < 0
            || e.lagAtEnd() > Math.max(MIN_WORRYING_LAG_MESSAGES, rate * MAX_LAG_SECONDS);
    boolean late =
        e.sendDelayP50Nanos() > MAX_SEND_DELAY_P50_NANOS
            || e.sendDelayP99Nanos() > MAX_SEND_DELAY_P99_NANOS;
    if (!(shortOfRate && lagging) && !late) {
      return new BottleneckVerdict(
          Kind.KEPT_SCHEDULE,
          String.format(
              "producers kept their schedule (sent %.0f of %.0f msg/s, send delay p99 %.3f ms)",
              e.achievedRate(), rate, e.sendDelayP99Nanos() / 1e6),
          figures);
    }
    String behind =
        String.format(
            "producers sent %.0f msg/s, %s%s, send delay p50 %.3f ms, p99 %.2f ms",
            e.achievedRate(),
            againstTarget(e.achievedRate(), rate),
            e.lagAtEnd() >= 0 ? String.format(", %d messages behind at the end", e.lagAtEnd()) : "",
            e.sendDelayP50Nanos() / 1e6,
            e.sendDelayP99Nanos() / 1e6);
    String evidence = t.describe() + hostFigures(e);
    Kind threads = threadsSay(t);
    boolean acknowledgementsSlowed =
        e.achievedRate() > 0 && e.acknowledgedRate() < e.achievedRate() * MIN_SEND_SHARE_OF_TARGET;
    if (acknowledgementsSlowed) {
      String acks =
          String.format(
              "the broker acknowledged only %.0f msg/s of the %.0f sent",
              e.acknowledgedRate(), e.achievedRate());
      // The threads' time says generator-bound: the slow acknowledgements may be the broker's or
      // the starved client's, and the evidence cannot tell which.
      Kind kind = threads == Kind.GENERATOR_BOUND ? Kind.UNDECIDED : Kind.BROKER_PUSHBACK;
      return new BottleneckVerdict(
          kind, behind + ". " + kind.label() + ": " + acks + "; " + evidence + ".", figures);
    }
    return new BottleneckVerdict(
        threads, behind + ". " + threads.label() + ": " + evidence + ".", figures);
  }

  /**
   * The sent rate against the target. Late sends alone can decide that producers fell behind, and
   * producers that start the measurement behind their schedule send above the target while they
   * catch up: that rate is no shortfall, and the clause says so rather than "-96% below".
   */
  private static String againstTarget(double sent, double target) {
    if (target <= 0) {
      return String.format("against a target of %.0f msg/s", target);
    }
    // Within the shortfall's tolerance either side, the rate is the target's.
    double tolerance = 1 - MIN_SEND_SHARE_OF_TARGET;
    if (sent < target * (1 - tolerance)) {
      return String.format(
          "%.1f%% below the target of %.0f msg/s", 100 * (1 - sent / target), target);
    }
    if (sent > target * (1 + tolerance)) {
      return String.format(
          "%.1f%% above the target of %.0f msg/s (catching up with a schedule they were behind)",
          100 * (sent / target - 1), target);
    }
    return String.format("the target of %.0f msg/s", target);
  }

  /**
   * What the producer threads' time says held them (the rules in the class comment); never
   * KEPT_SCHEDULE.
   */
  public static Kind threadsSay(ThreadEvidence t) {
    if (!t.measured()) {
      return Kind.UNDECIDED;
    }
    double offCpu = 1 - t.onCpuShare();
    if (offCpu < MIN_OFF_CPU_SHARE) {
      return Kind.GENERATOR_BOUND;
    }
    double blocked = t.sendBlockedShare();
    double waited = t.runDelayKnown() ? t.waitedForCpuShare() : offCpu - blocked;
    if (waited >= DOMINANCE * blocked) {
      return Kind.GENERATOR_BOUND;
    }
    if (t.runDelayKnown() && blocked >= DOMINANCE * waited) {
      return Kind.BROKER_PUSHBACK;
    }
    return Kind.UNDECIDED;
  }

  /** The host's figures as a clause to append (", the worker used ..., steal ..."), or "". */
  public static String hostFigures(ScheduleEvidence e) {
    StringBuilder host = new StringBuilder();
    if (!Double.isNaN(e.workerCpuShare())) {
      host.append(
          String.format(", the worker used %.0f%% of the host's CPU", e.workerCpuShare() * 100));
    }
    if (!Double.isNaN(e.stealShare())) {
      host.append(String.format(", steal %.1f%%", e.stealShare() * 100));
    }
    return host.toString();
  }
}
