package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Sends come back out of order: across producers and partitions, and a failure only once its
 * timeout has run. The timeline keeps every one, whichever came first, so its counts add up to the
 * run's.
 */
class PublishTimelineTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long MS = 1_000_000L;
  private static final long START = 1_000 * SECOND;

  @Test
  void aSendDueBeforeTheFirstOneRecordedIsKept() {
    PublishTimeline timeline = new PublishTimeline(SECOND);
    // Another producer's send, due 5 ms later, is acknowledged before this one fails.
    timeline.acknowledged(START + 5 * MS, START + 7 * MS);
    timeline.failed(START);

    PublishTimeline.Snapshot snapshot = timeline.snapshot();
    assertEquals(1, LongStream.of(snapshot.failed()).sum());
    assertEquals(1, LongStream.of(snapshot.acked()).sum());
  }

  @Test
  void everySendLandsInTheSliceOfItsIntendedTimeWhateverTheOrder() {
    PublishTimeline timeline = new PublishTimeline(SECOND);
    timeline.acknowledged(START + 5 * MS, START + 7 * MS);
    timeline.failed(START); // its timeout ran out after the later send's acknowledgement
    timeline.acknowledged(START + 40 * MS, START + 2_500 * MS); // stalled
    timeline.failed(START - 3 * SECOND); // a send 3 s earlier, failed on its 30 s timeout
    timeline.acknowledged(START - 1_500 * MS, START + 30 * MS);

    PublishTimeline.Snapshot snapshot = timeline.snapshot();
    assertEquals(2, LongStream.of(snapshot.failed()).sum());
    assertEquals(3, LongStream.of(snapshot.acked()).sum());
    assertEquals(2, LongStream.of(snapshot.stalled()).sum());
    assertEquals(1, snapshot.failed()[slice(snapshot, START - 3 * SECOND)]);
    assertEquals(1, snapshot.failed()[slice(snapshot, START)]);
    assertEquals(START + 7 * MS, snapshot.firstAck()[slice(snapshot, START + 5 * MS)]);
    assertEquals(START + 30 * MS, snapshot.firstAck()[slice(snapshot, START - 1_500 * MS)]);
    assertEquals(2_500 * MS - 40 * MS, snapshot.slowest()[slice(snapshot, START + 40 * MS)]);
    long acknowledgedSlices =
        LongStream.of(snapshot.firstAck()).filter(at -> at != Long.MAX_VALUE).count();
    assertEquals(3, acknowledgedSlices, "a slice nothing was acknowledged in has none");
  }

  /** The slice whose span holds {@code intended}, checked to hold it exactly. */
  private static int slice(PublishTimeline.Snapshot snapshot, long intended) {
    int slice = snapshot.sliceOf(intended);
    long start = snapshot.sliceStart(slice);
    assertTrue(
        start <= intended && intended < start + PublishTimeline.SLICE_NANOS,
        "slice " + slice + " from " + start + " holds " + intended);
    return slice;
  }
}
