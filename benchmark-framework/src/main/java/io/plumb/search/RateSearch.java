package io.plumb.search;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The search for the highest sustained rate, deterministic given the probes' verdicts:
 *
 * <ol>
 *   <li><b>grow</b>: probe the start rate, then multiply by the growth factor (2) after every
 *       sustained probe, until one fails or the maximum rate is reached;
 *   <li><b>confirm</b>: probe the first failed rate (the start rate included) once more, because it
 *       caps everything that follows: a single hiccup there (a GC pause, a log roll, a busy
 *       neighbour) would otherwise settle the search far below the broker's capacity. It fails only
 *       if both probes fail;
 *   <li><b>shrink</b>: if the very first probe failed, divide by the growth factor squared until
 *       one is sustained, down to the minimum rate (below which the search reports that nothing was
 *       sustained, rather than settling on a token rate);
 *   <li><b>bisect</b>: probe the geometric mean of the highest sustained and lowest failed rates
 *       until the failed one is within the precision (5%) above the sustained one;
 *   <li><b>recheck</b>: probe the rate about to be the answer once more, unless it has already
 *       passed twice. A broker whose capacity swings from one probe to the next (Kafka on a small
 *       VM passes a rate in one 15 s probe and falls 20% short of it in the next) would otherwise
 *       make the answer the luckiest probe's rate, which a second search does not repeat. If the
 *       recheck fails, that rate becomes the lowest failed one and the search goes on below it, so
 *       the answer is a rate that passed every time it was probed, but for a first failure that its
 *       confirmation overruled.
 * </ol>
 *
 * A probe {@link StepVerdict.Kind#TOO_SHORT_TO_TELL too short to tell} a growing backlog from the
 * swing of a broker's latency is run again at the same rate for longer ({@link
 * StepJudge#probeLongEnough}), and every later probe keeps that length. At {@link
 * StepJudge#LONGEST_PROBE} such a probe counts as failed: the answer is a rate that was shown to
 * pass.
 *
 * <p>Every probe is a separate fixed-rate run, so the rate never changes while it is measured, and
 * the result is the highest sustained rate: never one that failed, so never above what producers
 * could send. The caller then measures once at that rate for the workload's full duration.
 */
public final class RateSearch {
  private final Prober prober;
  private final StepJudge judge;
  private final SearchSettings settings;
  private final Consumer<SearchStep> onStep;

  public RateSearch(
      Prober prober, StepJudge judge, SearchSettings settings, Consumer<SearchStep> onStep) {
    this.prober = prober;
    this.judge = judge;
    this.settings = settings;
    this.onStep = onStep;
  }

  public SearchResult run(String goal) {
    long start = System.nanoTime();
    List<SearchStep> steps = new ArrayList<>();
    // Rates that passed, with how many times each did: the answer must have passed twice.
    TreeMap<Double, Integer> passes = new TreeMap<>();
    double failed = Double.POSITIVE_INFINITY;
    StepVerdict failedVerdict = null;
    double rate = clamp(settings.startRate());
    SearchSettings probing = settings;
    String stage = "grow";
    String incomplete = null;
    String stop = null;
    while (true) {
      if (steps.size() >= settings.maxSteps()) {
        stop = "steps";
        break;
      }
      ProbeOutcome outcome = prober.probe(rate, probing);
      if (outcome.incompleteReason() != null) {
        StepVerdict verdict =
            new StepVerdict(StepVerdict.Kind.ERRORS, "the probe's run did not complete");
        record(steps, stage, outcome, verdict);
        incomplete = "probe at " + fmt(rate) + " msg/s: " + outcome.incompleteReason();
        break;
      }
      StepVerdict verdict = judge.judge(outcome);
      record(steps, stage, outcome, verdict);
      if (verdict.kind() == StepVerdict.Kind.TOO_SHORT_TO_TELL
          && probing.probeDuration().compareTo(StepJudge.LONGEST_PROBE) < 0) {
        probing = longer(probing, StepJudge.probeLongEnough(outcome, settings.precision()));
        continue; // the same rate, measured for longer; so is every later probe
      }
      if (verdict.sustained()) {
        passes.merge(rate, 1, Integer::sum);
      } else if (stage.equals("grow") && failed == Double.POSITIVE_INFINITY) {
        stage = "confirm";
        continue; // same rate once more
      } else if (rate < failed) {
        // A failure rules out every rate from it up, one that passed before included (a failed
        // recheck): the next lower pass stands in.
        passes.tailMap(rate, true).clear();
        failed = rate;
        failedVerdict = verdict;
      }
      double sustained = highest(passes);
      if (stage.equals("confirm") && verdict.sustained()) {
        stage = "grow"; // the first failure was a hiccup: keep growing
      }
      if (failed == Double.POSITIVE_INFINITY) {
        if (rate >= settings.maxRate()) {
          if (passes.getOrDefault(rate, 0) < 2) {
            stage = "recheck";
            continue;
          }
          stop = "max-rate";
          break;
        }
        rate = clamp(rate * settings.growthFactor());
        stage = "grow";
      } else if (sustained == 0) {
        if (rate <= settings.minRate()) {
          stop = "min-rate";
          break;
        }
        rate = clamp(rate / (settings.growthFactor() * settings.growthFactor()));
        stage = "shrink";
      } else {
        double next = Math.round(Math.sqrt(sustained * failed));
        boolean narrowEnough =
            failed <= sustained * (1 + settings.precision()) || next <= sustained || next >= failed;
        if (!narrowEnough) {
          rate = next;
          stage = "bisect";
        } else if (passes.getOrDefault(sustained, 0) < 2) {
          rate = sustained;
          stage = "recheck";
        } else {
          break;
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Optional<Double> found = passes.isEmpty() ? Optional.empty() : Optional.of(highest(passes));
    Optional<Double> lowestFailed =
        failed < Double.POSITIVE_INFINITY ? Optional.of(failed) : Optional.empty();
    String limitedBy = stop != null ? stop : limitedBy(failedVerdict);
    if (incomplete != null) {
      limitedBy = "incomplete";
    }
    Optional<String> windows = prober.clientWindows();
    return new SearchResult(
        goal,
        found,
        lowestFailed,
        limitedBy,
        conclusion(
            goal, found, lowestFailed, limitedBy, failedVerdict, steps.size(), seconds, windows),
        List.copyOf(steps),
        settings,
        seconds,
        incomplete,
        windows);
  }

  private void record(
      List<SearchStep> steps, String stage, ProbeOutcome outcome, StepVerdict verdict) {
    SearchStep step = new SearchStep(steps.size() + 1, stage, outcome, verdict);
    steps.add(step);
    onStep.accept(step);
  }

  /**
   * Probes of {@code measured} seconds from now on, with a warm-up of a fifth of that (at most 10
   * s, never shorter than before): a broker whose latency swings that far also takes that long to
   * fill its pipeline, and the warm-up must cover it.
   */
  private static SearchSettings longer(SearchSettings now, Duration measured) {
    Duration warmup = measured.dividedBy(5);
    if (warmup.compareTo(Duration.ofSeconds(10)) > 0) {
      warmup = Duration.ofSeconds(10);
    }
    if (warmup.compareTo(now.probeWarmup()) < 0) {
      warmup = now.probeWarmup();
    }
    return now.withProbe(warmup, measured);
  }

  private static double highest(TreeMap<Double, Integer> passes) {
    return passes.isEmpty() ? 0 : passes.lastKey();
  }

  /**
   * Within the minimum and the maximum, the maximum winning: it is the workload's own rate in a
   * latency-target search, and a workload of 5 msg/s must not be probed (and answered) at 10.
   */
  private double clamp(double rate) {
    return Math.round(Math.min(settings.maxRate(), Math.max(settings.minRate(), rate)));
  }

  private static String limitedBy(StepVerdict verdict) {
    if (verdict == null) {
      return "none";
    }
    return switch (verdict.kind()) {
      case GENERATOR_BOUND -> "generator";
      case UNDECIDED -> "undecided";
      case LATENCY_TARGET_MISSED -> "latency-target";
      case ERRORS -> "errors";
      default -> "broker";
    };
  }

  private String conclusion(
      String goal,
      Optional<Double> found,
      Optional<Double> failed,
      String limitedBy,
      StepVerdict failedVerdict,
      int probes,
      double seconds,
      Optional<String> windows) {
    String head =
        String.format("%s search: %d probe(s) in %.0f s", goal, probes, seconds)
            + (found.isPresent()
                ? String.format(", highest sustained rate %s msg/s", fmt(found.get()))
                : ", no rate sustained")
            // Beside the peak: a window the broker fills caps the rate whatever the broker can do.
            + windows.map(w -> " [client windows: " + w + "]").orElse("");
    String tail =
        switch (limitedBy) {
          case "max-rate" ->
              String.format(
                  "; the search's maximum of %s msg/s was sustained, so the limit is higher",
                  fmt(settings.maxRate()));
          case "min-rate" ->
              String.format(
                  " at or above the minimum of %s msg/s (last: %s)",
                  fmt(settings.minRate()), failedVerdict == null ? "" : failedVerdict.reason());
          case "steps" -> "; stopped after the maximum number of probes";
          case "generator" ->
              String.format(
                  "; %s msg/s failed because THIS HOST could not generate it (generator-bound), so the figure is the load generator's limit, not the broker's",
                  fmt(failed.orElse(0.0)));
          case "incomplete" -> "; stopped early";
          default ->
              failed.isPresent() && failedVerdict != null
                  ? String.format(
                      " (%s msg/s failed: %s)", fmt(failed.get()), failedVerdict.reason())
                  : "";
        };
    return head + tail;
  }

  static String fmt(double rate) {
    return String.format("%,.0f", rate);
  }
}
