package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every caller gets its own thread's ring, whichever thread called before it. */
class LastCallerRingTest {
  private final StatsCollector stats = new StatsCollector("test-stats");
  private final LastCallerRing rings = new LastCallerRing(stats);
  private final ExecutorService threads = Executors.newFixedThreadPool(4);
  private final ExecutorService otherThread = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    threads.shutdownNow();
    otherThread.shutdownNow();
    stats.close();
  }

  @Test
  void aThreadGetsTheRingItsThreadLocalHolds() {
    assertSame(stats.ring(), rings.get());
    assertSame(stats.ring(), rings.get());
  }

  @Test
  void threadsTakingTurnsEachGetTheirOwn() throws Exception {
    EventRing mine = rings.get();
    EventRing other = otherThread.submit(rings::get).get();
    assertSame(otherThread.submit(stats::ring).get(), other);
    assertSame(mine, rings.get());
  }

  @Test
  void threadsCallingAtOnceNeverGetAnotherThreadsRing() throws Exception {
    List<Future<Integer>> wrong = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      wrong.add(
          threads.submit(
              () -> {
                EventRing own = stats.ring();
                int misses = 0;
                for (int i = 0; i < 200_000; i++) {
                  if (rings.get() != own) {
                    misses++;
                  }
                }
                return misses;
              }));
    }
    for (Future<Integer> misses : wrong) {
      assertEquals(0, misses.get());
    }
  }
}
