package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("host-timing")
class StatsCollectorTest {

  @Test
  void everyEventFromEveryThreadIsInTheNextPeriod() throws Exception {
    try (StatsCollector stats = new StatsCollector("test-stats")) {
      int subscription = stats.addSubscription("t", "s", 0);
      int threads = 4;
      int perThread = 50_000;
      stats.expectProducers(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> reporters = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int producer = t;
        Thread reporter =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  EventRing ring = stats.ring();
                  for (int i = 0; i < perThread; i++) {
                    ring.acknowledged(producer, i, 1_000, 1_500, 3_000);
                    ring.delivered(subscription, producer, 100, i, 1_000, 5_000, false);
                  }
                });
        reporter.start();
        reporters.add(reporter);
      }
      start.countDown();
      for (Thread reporter : reporters) {
        reporter.join();
      }
      PeriodStats.Builder builder = new PeriodStats.Builder();
      stats.takePeriod(builder);
      PeriodStats period = builder.build();
      long all = (long) threads * perThread;
      assertEquals(all, period.acknowledged());
      assertEquals(all, period.publishLatency().getTotalCount());
      assertEquals(all, period.received());
      assertEquals(all * 100, period.receivedBytes());
      assertEquals(0, period.duplicates());
      assertEquals(0, period.outOfOrder());
      assertEquals(2_000, period.publishLatency().getValueAtPercentile(50), 2);
      assertEquals(4_000, period.endToEndLatency().getValueAtPercentile(50), 4);
      long distinct =
          stats.inspect(
              (publish, subscriptions) -> {
                long sum = 0;
                for (int p = 0; p < threads; p++) {
                  sum += subscriptions[subscription].receivedFrom(p).size();
                  assertEquals(perThread, publish.ackedBy(p));
                }
                return sum;
              });
      assertEquals(all, distinct);

      PeriodStats.Builder next = new PeriodStats.Builder();
      stats.takePeriod(next);
      assertEquals(0, next.build().acknowledged(), "a period holds only what came after the last");
    }
  }

  @Test
  void duplicatesFromDifferentThreadsOfOneSubscriptionAreCaught() throws Exception {
    try (StatsCollector stats = new StatsCollector("test-stats")) {
      int subscription = stats.addSubscription("t", "s", 0);
      Thread first = new Thread(() -> stats.ring().delivered(subscription, 0, 10, 7, 0, 1, false));
      Thread second = new Thread(() -> stats.ring().delivered(subscription, 0, 10, 7, 0, 1, false));
      first.start();
      first.join();
      second.start();
      second.join();
      PeriodStats.Builder builder = new PeriodStats.Builder();
      stats.takePeriod(builder);
      assertEquals(2, builder.build().received());
      assertEquals(
          1L,
          (long) stats.inspect((publish, subscriptions) -> subscriptions[0].distinctReceived()));
    }
  }

  @Test
  void ringsOfEndedThreadsAreCountedThenDropped() throws Exception {
    try (StatsCollector stats = new StatsCollector("test-stats")) {
      int subscription = stats.addSubscription("t", "s", 0);
      for (int i = 0; i < 20; i++) {
        long sequence = i;
        Thread shortLived =
            new Thread(() -> stats.ring().delivered(subscription, 0, 10, sequence, 0, 5, false));
        shortLived.start();
        shortLived.join();
      }
      PeriodStats.Builder builder = new PeriodStats.Builder();
      stats.takePeriod(builder);
      assertEquals(20, builder.build().received());
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (stats.ringCount() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(0, stats.ringCount(), "rings of ended threads are released");
    }
  }

  @Test
  void aClosedCollectorStillAnswersWithEverythingReported() {
    StatsCollector stats = new StatsCollector("test-stats");
    int subscription = stats.addSubscription("t", "s", 0);
    stats.close();
    stats.ring().probe(subscription);
    stats.ring().probe(subscription);
    assertEquals(2L, (long) stats.inspect((publish, subscriptions) -> subscriptions[0].probes()));
  }

  @Test
  void clockCorrectionIsAppliedAndNegativeLatenciesAreCountedNotDropped() {
    try (StatsCollector stats = new StatsCollector("test-stats")) {
      int behind = stats.addSubscription("t", "behind", -80_000_000);
      stats.ring().delivered(behind, 0, 10, 0, 1_000_000_000L, 1_002_000_000L + 80_000_000, false);
      stats.ring().delivered(behind, 0, 10, 1, 1_000_000_000L, 1_000_000_000L, false);
      PeriodStats.Builder builder = new PeriodStats.Builder();
      stats.takePeriod(builder);
      PeriodStats period = builder.build();
      assertEquals(1, period.negativeEndToEnd());
      assertEquals(2, period.endToEndLatency().getTotalCount());
      assertEquals(2_000_000, period.endToEndLatency().getMaxValue(), 2_000);
    }
  }
}
