package io.plumb.bottleneck;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who limited a run or a search probe, decided the same way for both: whether producers kept their
 * schedule, and when they did not, whether this host could not generate the load or the broker
 * pushed back.
 *
 * <p>Producers fell behind when they sent under 98% of the target and ended more than 50 ms of
 * messages (and 20) behind it (a thread descheduled just before the end shortens the count but
 * catches up at once; one that cannot keep up stays behind), or when their sends were grossly late
 * (send delay p50 over 50 ms or p99 over 1 s). Then:
 *
 * <ul>
 *   <li><b>pushed back by the broker</b> when the driver's send() held the producer threads more
 *       than half the time (publish calls blocked: the client's buffer was full or it waited for
 *       the broker), or the broker acknowledged under 98% of what was sent (acknowledgements
 *       slowed);
 *   <li><b>generator-bound</b> otherwise: the threads were free to send and still missed their
 *       schedule, so this host's CPU (its own load, the hypervisor's steal) was the limit. The
 *       worker's CPU and the steal are quoted when sampled.
 * </ul>
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

  /**
   * send() holding producer threads more than this share of the time is the client pushing back.
   */
  public static final double CLIENT_HELD_SHARE = 0.5;

  public enum Kind {
    /** Producers kept their schedule: the figures measure the driver and broker. */
    KEPT_SCHEDULE("kept schedule"),
    /** Producers fell behind while free to send: the host could not generate the load. */
    GENERATOR_BOUND("generator-bound"),
    /** Producers fell behind because publish calls blocked or acknowledgements slowed. */
    BROKER_PUSHBACK("pushed back by the broker");

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
    figures.put("producerThreadTimeInSendPercent", e.sendThreadShare() * 100);
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
            "producers sent %.0f msg/s, %.1f%% below the target of %.0f msg/s%s, send delay p50 %.3f ms, p99 %.2f ms",
            e.achievedRate(),
            rate > 0 ? 100 * (1 - e.achievedRate() / rate) : 0,
            rate,
            e.lagAtEnd() >= 0 ? String.format(", %d messages behind at the end", e.lagAtEnd()) : "",
            e.sendDelayP50Nanos() / 1e6,
            e.sendDelayP99Nanos() / 1e6);
    boolean held = e.sendThreadShare() > CLIENT_HELD_SHARE;
    boolean acknowledgementsSlowed =
        e.achievedRate() > 0 && e.acknowledgedRate() < e.achievedRate() * MIN_SEND_SHARE_OF_TARGET;
    if (held || acknowledgementsSlowed) {
      String why =
          held
              ? String.format(
                  "Producer threads spent %.0f%% of their time inside the driver's send(): the client held them (broker backpressure or client limits)",
                  e.sendThreadShare() * 100)
              : String.format(
                  "The broker acknowledged only %.0f msg/s of the %.0f sent",
                  e.acknowledgedRate(), e.achievedRate());
      return new BottleneckVerdict(Kind.BROKER_PUSHBACK, behind + ". " + why + ".", figures);
    }
    return new BottleneckVerdict(
        Kind.GENERATOR_BOUND,
        behind
            + String.format(
                ". Their threads spent only %.0f%% of the time in send()%s: this host could not generate the load.",
                e.sendThreadShare() * 100, hostFigures(e)),
        figures);
  }

  private static String hostFigures(ScheduleEvidence e) {
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
