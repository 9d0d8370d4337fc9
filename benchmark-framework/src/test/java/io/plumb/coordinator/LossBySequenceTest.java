package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.stats.SequenceRanges;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Loss is judged by sequence numbers, never by counts that can cancel out. */
class LossBySequenceTest {
  private final RunPlan plan =
      new RunPlan(
          List.of(new TopicSpec("t", 1)),
          List.of(new ConsumerSpec("t", "s")),
          List.of(new ProducerSpec(0, "t")),
          Map.of("t/s", "t"),
          1000);

  @Test
  void aFailedSendThatArrivedNeverHidesAnAcknowledgedOneThatDidNot() {
    // 0..99 sent; 50 failed (but the broker kept it), 60 acknowledged and never delivered.
    SequenceRanges acked = SequenceRanges.range(0, 50).union(SequenceRanges.range(51, 100));
    SequenceRanges received = SequenceRanges.range(0, 60).union(SequenceRanges.range(61, 100));
    Totals totals =
        new Totals(
            Map.of(0, acked),
            Map.of(0, SequenceRanges.range(50, 51)),
            Map.of("t/s", Map.of(0, received)),
            0);

    // Counted as before (acknowledged 99, received 99), nothing would be missing.
    assertEquals(1, DeliveryCount.outstanding(plan, totals));
    assertEquals(1, DeliveryCount.receivedUnacknowledged(plan, totals));
  }

  @Test
  void aSubscriptionMissesOnlyMessagesOfItsOwnTopic() {
    RunPlan twoTopics =
        new RunPlan(
            List.of(new TopicSpec("a", 1), new TopicSpec("b", 1)),
            List.of(new ConsumerSpec("a", "s"), new ConsumerSpec("b", "s")),
            List.of(new ProducerSpec(0, "a"), new ProducerSpec(1, "b")),
            Map.of("a/s", "a", "b/s", "b"),
            1000);
    // Each topic's subscription received all of its own topic's 100 messages but one.
    Totals totals =
        new Totals(
            Map.of(0, SequenceRanges.range(0, 100), 1, SequenceRanges.range(0, 100)),
            Map.of(),
            Map.of(
                "a/s", Map.of(0, SequenceRanges.range(0, 99)),
                "b/s", Map.of(1, SequenceRanges.range(1, 100))),
            0);

    Map<String, Long> missing = new java.util.TreeMap<>();
    DeliveryCount.forEachMissing(
        twoTopics,
        totals,
        (subscription, producer, sequences) ->
            missing.merge(subscription + " from " + producer, sequences.size(), Long::sum));

    assertEquals(Map.of("a/s from 0", 1L, "b/s from 1", 1L), missing);
    assertEquals(2, DeliveryCount.outstanding(twoTopics, totals));
  }

  @Test
  void aMessageTheFinalReadFoundIsNotMissingOneItDidNotFindIs() {
    // 0..99 acknowledged; consumers received 0..79; the final read found 0..89 (not 90..99).
    Totals totals = readAfterEightyOfAHundred("t/s", SequenceRanges.range(0, 90));

    assertEquals(SequenceRanges.range(90, 100), totals.missing("t/s", 0));
    assertEquals(10, DeliveryCount.outstanding(plan, totals));
    assertEquals(10, FinalReadStep.foundOnlyByRead(plan, totals));
    // Another subscription's read says nothing about this one.
    Totals elsewhere = readAfterEightyOfAHundred("t/other", SequenceRanges.range(0, 100));
    assertEquals(20, DeliveryCount.outstanding(plan, elsewhere));
  }

  /**
   * Producer 0's messages 0..99 acknowledged, 0..79 received on {@code t/s}, and a final read of
   * subscription {@code readSubscription} that found {@code read}.
   */
  private static Totals readAfterEightyOfAHundred(String readSubscription, SequenceRanges read) {
    return new Totals(
        Map.of(0, SequenceRanges.range(0, 100)),
        Map.of(),
        Map.of("t/s", Map.of(0, SequenceRanges.range(0, 80))),
        0,
        Map.of(readSubscription, Map.of(0, read)));
  }
}
