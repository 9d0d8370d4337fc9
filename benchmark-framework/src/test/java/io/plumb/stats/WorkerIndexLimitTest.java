package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * An event names its producer or subscription by a 24-bit worker-local index: a worker asked for
 * more is refused, where the index would wrap and credit one's messages to another.
 */
class WorkerIndexLimitTest {
  @Test
  void moreProducersThanAnEventCanNameAreRefused() {
    try (StatsCollector stats = new StatsCollector("test-limit")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> stats.expectProducers(EventRing.MAX_INDEXES + 1));
      assertEquals(
          "this worker would hold 16,777,217 producers; one worker records at most 16,777,216:"
              + " spread them over more workers (--workers)",
          e.getMessage());
    }
  }

  @Test
  void moreSubscriptionsThanAnEventCanNameAreRefusedBeforeAnyIsAdded() {
    try (StatsCollector stats = new StatsCollector("test-limit")) {
      assertEquals(
          0, stats.addSubscription("t", "s", ClockCorrections.NONE), "the first one's index");
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  stats.addSubscriptions(
                      Collections.nCopies(EventRing.MAX_INDEXES, "t"),
                      Collections.nCopies(EventRing.MAX_INDEXES, "s"),
                      ClockCorrections.NONE));
      assertEquals(
          "this worker would hold 16,777,217 subscriptions; one worker records at most 16,777,216:"
              + " spread them over more workers (--workers)",
          e.getMessage());
    }
  }
}
