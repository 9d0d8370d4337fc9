package io.plumb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Efficient pacing shares a worker's wake-ups among its producer threads, but never leaves a thread
 * asleep long enough to make its sends more than a millisecond late.
 */
class PacerTest {
  private static long interval(int threads) {
    return new Pacer(new WorkerClock(), Pacing.EFFICIENT, threads).minWakeInterval();
  }

  @Test
  void aThreadWakesAtLeastEveryMillisecondHoweverManyThreadsShareTheWorker() {
    assertEquals(500_000, interval(1));
    assertEquals(1_000_000, interval(2));
    // 16 threads sharing 2,000 wake-ups would wake each every 8 ms: sends up to 8 ms late.
    assertEquals(1_000_000, interval(16));
    assertEquals(1_000_000, interval(64));
  }
}
