package io.plumb.cli;

import io.plumb.bottleneck.BottleneckVerdict;
import io.plumb.coordinator.PeriodProgress;
import io.plumb.coordinator.RunListener;
import io.plumb.driver.BrokerFactNames;
import io.plumb.fault.FaultOutcome;
import io.plumb.message.HeaderPlacement;
import io.plumb.remote.CrossHostLatency;
import io.plumb.remote.DistributedWorkers;
import io.plumb.result.Counters;
import io.plumb.result.Percentiles;
import io.plumb.result.RunReport;
import io.plumb.result.UntimedAcknowledgements;
import io.plumb.result.WindowSummary;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.Worker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/** Progress lines while a run goes, and a one-screen summary when it ends. */
final class ConsoleReporter implements RunListener {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
  private final PrintStream out;
  private final int messageSize;
  private final Supplier<OptionalLong> clockUncertaintyNanos;

  ConsoleReporter(PrintStream out, int messageSize) {
    this(out, messageSize, OptionalLong::empty);
  }

  /**
   * @param clockUncertaintyNanos how far end-to-end latency can be off from the clock offsets
   *     between producing and consuming hosts, read as each figure is printed (a later measurement
   *     can widen it); empty when no message crosses hosts
   */
  ConsoleReporter(PrintStream out, int messageSize, Supplier<OptionalLong> clockUncertaintyNanos) {
    this.out = out;
    this.messageSize = messageSize;
    this.clockUncertaintyNanos = clockUncertaintyNanos;
  }

  /** For a run on {@code worker}: with remote workers, every end-to-end figure gets its ±. */
  static ConsoleReporter forWorker(PrintStream out, int messageSize, Worker worker) {
    return worker instanceof DistributedWorkers ensemble
        ? new ConsoleReporter(out, messageSize, ensemble::endToEndClockUncertaintyNanos)
        : new ConsoleReporter(out, messageSize);
  }

  @Override
  public void step(String message) {
    out.println(LocalTime.now().format(TIME) + "  " + message);
  }

  @Override
  public void period(PeriodProgress progress) {
    PeriodStats stats = progress.stats();
    double seconds = progress.periodSeconds();
    long lag = progress.lagMessages();
    double publishRate = stats.sent() / seconds;
    double consumeRate = stats.received() / seconds;
    String line =
        String.format(
            "%s  %-8s %4.0f/%-4.0fs  pub %,9.0f msg/s %7.2f MB/s | cons %,9.0f msg/s %7.2f MB/s | backlog %,d | pub ms %s | e2e ms %s | err %d",
            LocalTime.now().format(TIME),
            progress.phase().label(),
            progress.elapsedSeconds(),
            progress.phaseSeconds(),
            publishRate,
            publishRate * messageSize / (1024 * 1024),
            consumeRate,
            consumeRate * messageSize / (1024 * 1024),
            progress.backlog(),
            brief(stats.publishLatency()),
            brief(stats.endToEndLatency()) + clocks(stats.endToEndLatency()),
            stats.failed() + stats.consumerErrors());
    // A period with no send at all is behind too: producers stuck in send() the whole period.
    if (lag > 0 && lag > publishRate * 0.01) {
      line += String.format(" | BEHIND schedule by %,d msgs", lag);
    }
    out.println(line);
  }

  private static String brief(Histogram histogram) {
    if (histogram.getTotalCount() == 0) {
      return "-";
    }
    return String.format(
        "p50 %s p99 %s p99.9 %s max %s",
        ms(Percentiles.millis(histogram, 50)),
        ms(Percentiles.millis(histogram, 99)),
        ms(Percentiles.millis(histogram, 99.9)),
        ms(Percentiles.maxMillis(histogram)));
  }

  /** Beside a cross-host end-to-end figure: how far the clock offsets leave it in doubt. */
  private String clocks(Histogram endToEnd) {
    OptionalLong uncertainty = clockUncertaintyNanos.get();
    if (uncertainty.isEmpty() || endToEnd.getTotalCount() == 0) {
      return "";
    }
    return " (clocks " + CrossHostLatency.of(uncertainty.getAsLong(), endToEnd).plusMinus() + ")";
  }

  static String ms(double millis) {
    if (millis >= 100) {
      return String.format("%.0f", millis);
    }
    if (millis >= 1) {
      return String.format("%.2f", millis);
    }
    return String.format("%.3f", millis);
  }

  /**
   * What the run ran on, as the broker reported it: version, node count, and the copies of the
   * run's topics with the nodes holding them. Empty when the driver reports none of these.
   */
  static Optional<String> brokerLine(Map<String, String> facts) {
    List<String> parts = new ArrayList<>();
    String version = facts.get(BrokerFactNames.BROKER_VERSION);
    if (version != null) {
      parts.add("version " + version);
    }
    String nodes = facts.get(BrokerFactNames.NODES);
    if (nodes != null) {
      parts.add(nodes + (nodes.equals("1") ? " node" : " nodes"));
    }
    String replicas = facts.get(BrokerFactNames.REPLICAS);
    if (replicas != null) {
      String holders = facts.get(BrokerFactNames.REPLICA_NODES);
      parts.add(
          replicas
              + (replicas.equals("1") ? " copy" : " copies")
              + " of each message"
              + (holders == null ? "" : " (on " + holders + ")"));
    }
    return parts.isEmpty()
        ? Optional.empty()
        : Optional.of("Broker       " + String.join(" | ", parts));
  }

  /**
   * The client windows the run used (see {@link WindowSummary}), or empty when the driver reports
   * none.
   */
  static Optional<String> windowsLine(Map<String, String> facts) {
    return WindowSummary.describe(facts).map(windows -> "Windows      " + windows);
  }

  /**
   * Where the header travelled, when the broker's metadata carried it; empty when it started each
   * payload, as it always did before metadata.
   */
  static Optional<String> headerLine(Map<String, String> facts) {
    if (!HeaderPlacement.METADATA.fieldValue().equals(facts.get(HeaderPlacement.FACT))) {
      return Optional.empty();
    }
    return Optional.of("Header       in " + facts.get(HeaderPlacement.DETAIL_FACT));
  }

  @Override
  public void finished(RunReport report) {
    out.println();
    out.printf(
        "== %s on %s: %s (measured %.1f s after %.1f s of warm-up)%n",
        report.workload().name(),
        report.driverName(),
        report.complete() ? "complete" : "INCOMPLETE: " + report.incompleteReason(),
        report.measuredSeconds(),
        report.warmupSeconds());
    out.printf(
        "Throughput   target %,.0f msg/s | published %,.0f msg/s (%.2f MB/s) | consumed %,.0f msg/s (%.2f MB/s)%n",
        report.targetRate(),
        report.publishRate(),
        report.publishRate() * messageSize / (1024 * 1024),
        report.consumeRate(),
        report.consumeRate() * messageSize / (1024 * 1024));
    brokerLine(report.brokerFacts()).ifPresent(out::println);
    windowsLine(report.brokerFacts()).ifPresent(out::println);
    headerLine(report.brokerFacts()).ifPresent(out::println);
    Counters c = report.counters();
    out.printf(
        "Messages     sent %,d | acknowledged %,d | failed %,d%s | received %,d | lost %,d | in flight %,d | duplicated %,d | out of order %,d | consumer errors %,d%n",
        c.sent(),
        c.acknowledged(),
        c.failed(),
        c.unacknowledged() == 0 ? "" : String.format(" | unacknowledged %,d", c.unacknowledged()),
        c.received(),
        c.lost(),
        c.inFlight(),
        c.duplicated(),
        c.outOfOrder(),
        c.consumerErrors());
    out.println(FinalReadLine.describe(report.finalRead(), c.acknowledged()));
    if (!report.faults().isEmpty()) {
      out.println(FaultLines.beforeFirstFault(report.beforeFirstFault()));
    }
    for (FaultOutcome fault : report.faults()) {
      out.println(FaultLines.describe(fault));
    }
    if (c.receivedUnacknowledged() > 0) {
      out.printf(
          "Messages     received although their send failed or was never acknowledged: %,d%n",
          c.receivedUnacknowledged());
    }
    StringBuilder header = new StringBuilder(String.format("%-26s", "Latency (ms)"));
    for (double percentile : Percentiles.REPORTED) {
      header.append(String.format("%10s", Percentiles.label(percentile)));
    }
    header.append(String.format("%10s", "max"));
    out.println(header);
    UntimedAcknowledgements untimed = UntimedAcknowledgements.of(report.measured());
    row(
        "publish (from intended)",
        report.measured().publishLatency(),
        UntimedAcknowledgements.NONE);
    row("service time (from send)", report.measured().serviceTime(), untimed);
    row("send delay", report.measured().sendDelay(), untimed);
    Histogram endToEnd = report.measured().endToEndLatency();
    OptionalLong uncertainty = clockUncertaintyNanos.get();
    if (uncertainty.isPresent() && endToEnd.getTotalCount() > 0) {
      CrossHostLatency crossHost = CrossHostLatency.of(uncertainty.getAsLong(), endToEnd);
      row("end-to-end " + crossHost.plusMinus(), endToEnd, UntimedAcknowledgements.NONE);
      untimed.line().ifPresent(out::println);
      out.println("Clocks       " + crossHost.line());
    } else {
      row("end-to-end", endToEnd, UntimedAcknowledgements.NONE);
      untimed.line().ifPresent(out::println);
    }
    if (report.measuredSeconds() == 0) {
      out.println("Verdict      nothing was measured");
    } else if (report.generatorBoundReasons().isEmpty()
        && report.bottleneck() != null
        && report.bottleneck().kind() == BottleneckVerdict.Kind.BROKER_PUSHBACK) {
      out.println("Verdict      PUSHED BACK BY THE BROKER: " + report.bottleneck().reason());
    } else if (report.generatorBoundReasons().isEmpty()
        && report.bottleneck() != null
        && report.bottleneck().kind() == BottleneckVerdict.Kind.UNDECIDED) {
      out.println("Verdict      UNDECIDED: " + report.bottleneck().reason());
    } else if (report.generatorBoundReasons().isEmpty()) {
      out.printf(
          "Verdict      the generator kept to its schedule (send delay p99 %s ms): these figures measure the driver and broker%n",
          ms(Percentiles.millis(report.measured().sendDelay(), 99)));
    } else {
      for (String reason : report.generatorBoundReasons()) {
        out.println("Verdict      GENERATOR-BOUND: " + reason);
      }
    }
    SendDelayMaxLine.describe(
            Percentiles.maxMillis(report.measured().sendDelay()),
            report.resources().producerLongestCoreWaitMillis())
        .ifPresent(out::println);
    ResourceLines.print(out, report.resources());
    // Untimed acknowledgements have their own line under the latencies they leave out.
    if (c.negativeEndToEnd() + c.foreign() > 0) {
      out.printf(
          "Also         negative end-to-end (clocks disagree) %,d | foreign messages %,d%n",
          c.negativeEndToEnd(), c.foreign());
    }
    for (String error : report.errors()) {
      out.println("Error        " + error);
    }
  }

  /** Where the result went, and the command that turns it into a report. */
  static void written(PrintStream out, Path result) {
    out.println("Result       " + result);
    reportCommand(out, result);
  }

  /** The command that turns {@code result} (one run's, or a summary) into a report beside it. */
  static void reportCommand(PrintStream out, Path result) {
    out.println(
        "Report       bin/benchmark report "
            + result
            + " -o "
            + result.resolveSibling("report.html"));
  }

  /** After several runs: every result, and one report comparing them all. */
  static void allWritten(PrintStream out, List<Path> results) {
    if (results.size() < 2) {
      return;
    }
    out.printf("%n== %d results%n", results.size());
    StringBuilder command = new StringBuilder("bin/benchmark report");
    for (Path result : results) {
      out.println("Result       " + result);
      command.append(' ').append(result);
    }
    command.append(" -o ").append(results.get(0).resolveSibling("report.html"));
    out.println("Report       " + command);
  }

  /** One latency's row; a figure {@code untimed} says may read low carries a star. */
  private void row(String name, Histogram histogram, UntimedAcknowledgements untimed) {
    StringBuilder line = new StringBuilder(String.format("  %-24s", name));
    for (double percentile : Percentiles.REPORTED) {
      line.append(
          cell(
              histogram,
              Percentiles.millis(histogram, percentile),
              untimed.mayReadLow(percentile)));
    }
    line.append(cell(histogram, Percentiles.maxMillis(histogram), untimed.mayReadLow(100)));
    out.println(line);
  }

  private static String cell(Histogram histogram, double millis, boolean mayReadLow) {
    return String.format(
        "%10s", histogram.getTotalCount() == 0 ? "-" : ms(millis) + (mayReadLow ? "*" : ""));
  }
}
