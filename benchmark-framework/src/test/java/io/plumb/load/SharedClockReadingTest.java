package io.plumb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.load.BackToBackLoad.SpinningProducer;
import io.plumb.stats.PeriodStats;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Back to back, short sends share one clock reading, up to {@link
 * ProducerLoop#SHARED_READING_SENDS} of them (see {@link ProducerLoop#SHAREABLE_SEND_NANOS}): each
 * message is still stamped within its group's span, a send that blocks blurs at most the others of
 * its group, and sends longer than the limit are each timed on their own.
 */
@Tag("host-timing")
class SharedClockReadingTest {
  private static final long BLOCK_NANOS = 20_000;

  @Test
  void sharedReadingsStampEveryMessageWithinTheGroupsSpan() throws InterruptedException {
    PeriodStats run = BackToBackLoad.run(SpinningProducer.taking(0), 500).period();
    assertTrue(run.acknowledged() > 100L * ProducerLoop.SAMPLE_EVERY, run.toString());
    assertEquals(run.acknowledged(), run.serviceTime().getTotalCount());
    assertEquals(run.acknowledged(), run.sendDelay().getTotalCount());
    // An instant send's service time runs from the reading before its group to the one after:
    // above zero (a message left unstamped would read as completed at time zero), and within the
    // span that ends the sharing for all but the groups the host interrupted.
    Histogram service = run.serviceTime();
    assertTrue(service.getValueAtPercentile(50) > 0, () -> "service time p50 " + p(service, 50));
    assertTrue(
        service.getValueAtPercentile(90) <= ProducerLoop.SHARED_SPAN_LIMIT_NANOS,
        () -> "service time p90 " + p(service, 90));
  }

  @Test
  void aSendThatBlocksBlursAtMostTheOthersOfItsGroup() throws InterruptedException {
    SpinningProducer producer = new SpinningProducer(0, BLOCK_NANOS, 200);
    PeriodStats run = BackToBackLoad.run(producer, 1_000).period();
    long blocked = producer.blocked();
    assertTrue(blocked > 100, "blocking sends: " + blocked);
    long slow = countAtOrAbove(run.serviceTime(), BLOCK_NANOS / 2);
    // Every blocking send shows its block, and the others of its group (three at most) show it
    // too: four times as many slow service times as blocking sends, where a reading per send gives
    // as many. One more per blocking send leaves room for the host taking the core away mid-group
    // (about one in fifteen blocking sends on a busy 2-core VM, each blurring its group).
    String counts = slow + " service times over 10 us, " + blocked + " blocking sends";
    assertTrue(slow >= blocked, counts);
    assertTrue(slow <= (ProducerLoop.SHARED_READING_SENDS + 1) * blocked, counts);
  }

  @Test
  void sendsLongerThanTheLimitAreEachTimedOnTheirOwn() throws InterruptedException {
    long each = 2_000;
    PeriodStats run = BackToBackLoad.run(SpinningProducer.taking(each), 500).period();
    assertTrue(run.acknowledged() > 10L * ProducerLoop.SAMPLE_EVERY, run.toString());
    // Each send's service time is its own 2 us; four sharing a reading would read 8 us.
    long median = run.serviceTime().getValueAtPercentile(50);
    assertTrue(median >= each && median < 2 * each, "service time p50 " + median + " ns");
  }

  private static long countAtOrAbove(Histogram histogram, long value) {
    return histogram.getTotalCount() - histogram.getCountBetweenValues(0, value - 1);
  }

  private static String p(Histogram histogram, double percentile) {
    return histogram.getValueAtPercentile(percentile) + " ns";
  }
}
