package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class EventRingTest {

  /** Keeps what a drain hands over, as text, in order. */
  private static final class Recorded implements EventSink {
    final List<String> events = new ArrayList<>();

    @Override
    public void acknowledged(
        int producer,
        int sequenceLow,
        int partition,
        long intended,
        long sentAt,
        long completedAt) {
      events.add(
          "ack "
              + producer
              + (sequenceLow == 0 ? "" : " #" + sequenceLow)
              + (partition < 0 ? "" : " p" + partition)
              + " "
              + intended
              + " "
              + sentAt
              + " "
              + completedAt);
    }

    @Override
    public void sendFailed(
        int producer, int sequenceLow, int partition, long intended, long sentAt, long failedAt) {
      events.add(
          "failed "
              + producer
              + (partition < 0 ? "" : " p" + partition + " sent " + sentAt)
              + (sequenceLow == 0 ? "" : " #" + sequenceLow + " " + intended + " " + failedAt));
    }

    @Override
    public void delivered(
        int subscription,
        int producerId,
        int length,
        long sequence,
        long latency,
        boolean afterLater) {
      events.add(
          (afterLater ? "late delivery " : "delivery ")
              + subscription
              + " "
              + producerId
              + " "
              + length
              + " "
              + sequence
              + " "
              + latency);
    }

    @Override
    public void consumerError(int subscription) {
      events.add("error " + subscription);
    }

    @Override
    public void foreign(int subscription) {
      events.add("foreign " + subscription);
    }

    @Override
    public void probe(int subscription) {
      events.add("probe " + subscription);
    }
  }

  @Test
  void eventsOutsideASendArePublishedAtOnceWithTheirOwnTimes() {
    EventRing ring = new EventRing(8, Thread.currentThread(), () -> false, () -> {});
    ring.acknowledged(3, 0, 100, 150, 900);
    ring.delivered(1, 7, 1024, 42, 1_000, 1_750, false);
    ring.sendFailed(2, 0, 0, 0);
    ring.consumerError(1);
    ring.foreign(0);
    ring.probe(5);
    Recorded sink = new Recorded();
    assertEquals(6, ring.drainTo(sink));
    assertEquals(
        List.of(
            "ack 3 100 150 900",
            "delivery 1 7 1024 42 750",
            "failed 2",
            "error 1",
            "foreign 0",
            "probe 5"),
        sink.events);
    assertEquals(0, ring.drainTo(sink));
  }

  @Test
  void aDeliveryMarkedAfterALaterOneKeepsItsMarkAndEverythingElse() {
    EventRing ring = new EventRing(8, Thread.currentThread(), () -> false, () -> {});
    ring.delivered(0xFF_FFFF, Integer.MAX_VALUE, 1024, 42, 1_000, 1_750, true);
    ring.delivered(2, 3, 64, 41, 1_000, 2_000, false);
    Recorded sink = new Recorded();
    ring.drainTo(sink);
    assertEquals(
        List.of(
            "late delivery " + 0xFF_FFFF + " " + Integer.MAX_VALUE + " 1024 42 750",
            "delivery 2 3 64 41 1000"),
        sink.events);
  }

  @Test
  void aRingHalfFullWakesTheCollectorOncePerDrain() {
    List<Integer> wakesAtEvent = new ArrayList<>();
    int[] events = {0};
    EventRing ring =
        new EventRing(8, Thread.currentThread(), () -> false, () -> wakesAtEvent.add(events[0]));
    for (int i = 0; i < 7; i++) {
      events[0]++;
      ring.foreign(0);
    }
    assertEquals(List.of(4), wakesAtEvent, "woken as the fourth of 8 slots filled, and only then");

    assertEquals(7, ring.drainTo(new Recorded()));
    for (int i = 0; i < 3; i++) {
      events[0]++;
      ring.foreign(0);
    }
    assertEquals(List.of(4), wakesAtEvent, "3 of 8 slots in use since the drain");
    for (int i = 0; i < 3; i++) {
      events[0]++;
      ring.foreign(0);
    }
    assertEquals(List.of(4, 11), wakesAtEvent, "half full again since the drain, woken once");
  }

  @Test
  void eventsInsideASendAreStampedWithTheTimeSendReturned() {
    EventRing ring = new EventRing(64, Thread.currentThread(), () -> false, () -> {});
    ring.deferTimes();
    ring.delivered(0, 1, 100, 9, 5_000, 0, false);
    ring.acknowledged(0, 0, 5_000, 5_010, 0);
    Recorded sink = new Recorded();
    assertEquals(0, ring.drainTo(sink), "nothing is visible before it is stamped");
    ring.stampDeferred(5_300);
    ring.flush();
    assertEquals(2, ring.drainTo(sink));
    assertEquals(List.of("delivery 0 1 100 9 300", "ack 0 5000 5010 5300"), sink.events);
  }

  @Test
  void stampedEventsArePublishedInBatchesAndOnFlush() {
    EventRing ring = new EventRing(1024, Thread.currentThread(), () -> false, () -> {});
    Recorded sink = new Recorded();
    for (int i = 0; i < 31; i++) {
      ring.deferTimes();
      ring.acknowledged(0, 0, i, i, 0);
      ring.stampDeferred(i + 1);
    }
    assertEquals(0, ring.drainTo(sink), "a batch is not full yet");
    ring.deferTimes();
    ring.acknowledged(0, 0, 31, 31, 0);
    ring.stampDeferred(32);
    assertEquals(32, ring.drainTo(sink));
    ring.deferTimes();
    ring.acknowledged(0, 0, 32, 32, 0);
    ring.stampDeferred(33);
    ring.flush();
    assertEquals(1, ring.drainTo(sink));
    assertEquals("ack 0 32 32 33", sink.events.get(32));
  }

  @Test
  void aFullRingWaitsForTheCollectorAndLosesNothing() throws Exception {
    EventRing ring = new EventRing(16, Thread.currentThread(), () -> false, () -> {});
    int total = 100_000;
    Recorded sink = new Recorded();
    AtomicBoolean done = new AtomicBoolean();
    Thread collector =
        new Thread(
            () -> {
              while (!done.get() || sink.events.size() < total) {
                ring.drainTo(sink);
              }
            });
    collector.start();
    for (int i = 0; i < total; i++) {
      if (i % 2 == 0) {
        ring.acknowledged(1, 0, i, i, i + 1);
      } else {
        ring.deferTimes();
        ring.delivered(2, 4, 64, i, i, 0, false);
        ring.stampDeferred(i + 10);
        ring.flush();
      }
    }
    done.set(true);
    collector.join(10_000);
    assertEquals(total, sink.events.size());
    for (int i = 0; i < total; i++) {
      String expected =
          i % 2 == 0 ? "ack 1 " + i + " " + i + " " + (i + 1) : "delivery 2 4 64 " + i + " 10";
      assertEquals(expected, sink.events.get(i));
    }
  }

  @Test
  void completionsCarryTheLow32BitsOfTheirSequenceNumber() {
    EventRing ring = new EventRing(8, Thread.currentThread(), () -> false, () -> {});
    ring.acknowledged(1, (5L << 32) + 77, 100, 150, 900);
    ring.sendFailed(1, 78, 200, 1_200);
    Recorded sink = new Recorded();
    ring.drainTo(sink);
    assertEquals(List.of("ack 1 #77 100 150 900", "failed 1 #78 200 1200"), sink.events);
  }

  @Test
  void completionsCarryTheirPartitionAndActualSendTimeInTheSameFourWords() {
    EventRing ring = new EventRing(8, Thread.currentThread(), () -> false, () -> {});
    long intended = 5_000_000_000L;
    ring.acknowledged(1, 7, 3, intended, intended + 1_234, intended + 9_000);
    ring.acknowledged(1, 8, 65_534, intended, intended - 20, intended + 9_000);
    ring.acknowledged(1, 9, 65_535, intended, PublishRecorder.UNKNOWN, intended + 9_000);
    ring.sendFailed(2, 10, 0, intended, intended + (1L << 46), intended + 1);
    ring.sendFailed(2, 11, 5, intended, intended + (1L << 47), intended + 1);
    Recorded sink = new Recorded();
    ring.drainTo(sink);
    assertEquals(
        List.of(
            "ack 1 #7 p3 5000000000 5000001234 5000009000",
            "ack 1 #8 p65534 5000000000 4999999980 5000009000",
            "ack 1 #9 5000000000 " + PublishRecorder.UNKNOWN + " 5000009000",
            "failed 2 p0 sent " + (intended + (1L << 46)) + " #10 5000000000 5000000001",
            "failed 2 p5 sent " + PublishRecorder.UNKNOWN + " #11 5000000000 5000000001"),
        sink.events,
        "partitions beyond 16 bits and offsets beyond 48 bits are unknown, not wrong");
  }

  @Test
  void aFullRingWithNobodyDrainingDiscardsInsteadOfBlockingForever() {
    EventRing ring = new EventRing(4, Thread.currentThread(), () -> true, () -> {});
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          for (int i = 0; i < 100; i++) {
            ring.sendFailed(0, 0, 0, 0);
          }
        });
  }
}
