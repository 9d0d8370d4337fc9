package io.plumb.coordinator;

import io.plumb.result.FinalReadFigures;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.FinalReads;
import io.plumb.worker.WorkerSpecs.Totals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * After the drain, with every client closed and every fault healed: reads each subscription's topic
 * to the end its broker reports, so loss is judged against what the broker still holds rather than
 * against how long consumers were given. Runs always with a fault plan, and otherwise only when
 * something acknowledged is still missing; where it cannot run, the drain's judgement stands and
 * the result says why.
 */
final class FinalReadStep {

  /**
   * What the read found, and how the run's balance is to be judged from now on.
   *
   * @param outcome {@link DeliveryBalance.DrainOutcome#READ_TO_END} when the read ran, else the
   *     drain's own outcome
   */
  record Result(FinalReadFigures figures, DeliveryBalance.DrainOutcome outcome) {}

  private FinalReadStep() {}

  static Result run(RunContext run, DeliveryBalance.DrainOutcome drained, boolean faultPlan) {
    if (run.abortSignal().abortReason() != null) {
      return new Result(FinalReadFigures.notRun("the run was stopped"), drained);
    }
    Optional<String> whyNot = run.worker().whyNoFinalRead();
    if (whyNot.isPresent()) {
      return new Result(FinalReadFigures.notRun(whyNot.get()), drained);
    }
    long missingAfterDrain =
        drained == DeliveryBalance.DrainOutcome.COMPLETE
            ? 0
            : DeliveryCount.outstanding(run.findings().plan(), run.worker().totals());
    if (!faultPlan && missingAfterDrain == 0) {
      return new Result(
          FinalReadFigures.notRun("not needed: every acknowledged message was received"), drained);
    }
    try {
      run.worker().closeClients(List.of());
    } catch (RuntimeException e) {
      // A client that failed to close does not stop a fresh reader from reading the topic.
      run.errors().add("closing clients before the final read: " + e.getMessage());
    }
    Duration timeout = run.options().effectiveDrainTimeout();
    run.step("final read: reading every subscription's topic to the end the broker reports");
    long start = System.nanoTime();
    FinalReads.Summary summary;
    try {
      summary = run.worker().finalRead(run.findings().plan().consumers(), timeout);
    } catch (RuntimeException e) {
      double seconds = (System.nanoTime() - start) / 1e9;
      String why = "failed after " + String.format("%.1f s", seconds) + ": " + e.getMessage();
      run.errors().add("final read " + why + "; loss is judged by the drain");
      return new Result(new FinalReadFigures(false, why, seconds, 0, 0, 0, Map.of()), drained);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long foundOnlyByRead = foundOnlyByRead(run.findings().plan(), run.worker().totals());
    long notInRead = acknowledgedNotInRead(run.findings().plan(), run.worker().totals());
    run.step(
        String.format(
            "final read: %,d message(s) in %.1f s; %,d acknowledged message(s) found only by it",
            summary.messagesRead(), seconds, foundOnlyByRead));
    if (missingAfterDrain > 0) {
      // The drain's verdict ("count as lost", "in flight") was a guess the read has now replaced.
      run.errors().removeIf(line -> line.startsWith(Drain.ERROR_PREFIX));
      run.errors()
          .add(
              String.format(
                  "drain: ended with %,d acknowledged delivery(ies) missing; the final read found"
                      + " %,d of them on the broker, the rest count as lost",
                  missingAfterDrain, foundOnlyByRead));
    }
    return new Result(
        new FinalReadFigures(
            true,
            null,
            seconds,
            summary.messagesRead(),
            foundOnlyByRead,
            notInRead,
            summary.endByTopic()),
        DeliveryBalance.DrainOutcome.READ_TO_END);
  }

  /** Acknowledged messages the consumers never received but the read found, over subscriptions. */
  static long foundOnlyByRead(RunPlan plan, Totals totals) {
    long found = 0;
    Map<String, List<Integer>> producersByTopic = plan.producerIdsByTopic();
    for (Map.Entry<String, String> entry : plan.topicOfSubscription().entrySet()) {
      for (int producer : producersByTopic.getOrDefault(entry.getValue(), List.of())) {
        found += totals.foundOnlyByRead(entry.getKey(), producer);
      }
    }
    return found;
  }

  /**
   * Acknowledged messages that no read of their topic contained, each counted once: a topic with
   * two subscriptions is one log read twice (or two queues, either of which holding a message shows
   * the broker kept it), and the run's acknowledged count, which this is set against, counts each
   * message once.
   */
  static long acknowledgedNotInRead(RunPlan plan, Totals totals) {
    Map<String, List<String>> subscriptionsByTopic = new HashMap<>();
    plan.topicOfSubscription()
        .forEach(
            (subscription, topic) ->
                subscriptionsByTopic
                    .computeIfAbsent(topic, t -> new ArrayList<>())
                    .add(subscription));
    long missing = 0;
    for (Map.Entry<String, List<Integer>> entry : plan.producerIdsByTopic().entrySet()) {
      List<String> subscriptions = subscriptionsByTopic.getOrDefault(entry.getKey(), List.of());
      if (subscriptions.isEmpty()) {
        continue; // nothing read this topic: no read to judge it by
      }
      for (int producer : entry.getValue()) {
        SequenceRanges read = SequenceRanges.EMPTY;
        for (String subscription : subscriptions) {
          read = read.union(totals.finalRead(subscription, producer));
        }
        missing += totals.acked(producer).minus(read).size();
      }
    }
    return missing;
  }
}
