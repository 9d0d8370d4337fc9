package io.plumb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ArrivalOrderTest {
  @Test
  void aMessageAfterALaterOneOfItsPairIsMarked() {
    ArrivalOrder order = new ArrivalOrder();
    assertFalse(order.arrivedAfterLater(0, 0, 5));
    assertTrue(order.arrivedAfterLater(0, 0, 4));
    assertFalse(order.arrivedAfterLater(0, 0, 6));
    assertFalse(order.arrivedAfterLater(0, 0, 6), "a repeat of the highest is not after a later");
  }

  @Test
  void manyPairsKeepTheirOwnHighestAcrossGrowth() {
    ArrivalOrder order = new ArrivalOrder();
    // Unknown partition (-1) too; 300 pairs grow the table several times.
    for (int producer = 0; producer < 100; producer++) {
      for (int partition = -1; partition < 2; partition++) {
        assertFalse(order.arrivedAfterLater(producer, partition, 1_000L + producer));
      }
    }
    for (int producer = 0; producer < 100; producer++) {
      for (int partition = -1; partition < 2; partition++) {
        assertTrue(order.arrivedAfterLater(producer, partition, 999L + producer));
        assertFalse(order.arrivedAfterLater(producer, partition, 1_001L + producer));
      }
    }
  }

  @Test
  void threadsDeliveringOtherPartitionsAtOnceNeverMarkInOrderMessages() throws Exception {
    ArrivalOrder order = new ArrivalOrder();
    AtomicLong marked = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int partition = t;
      threads.add(
          new Thread(
              () -> {
                for (long sequence = 0; sequence < 200_000; sequence++) {
                  // New pairs now and then, so inserts and growth race with lookups.
                  int producer = (int) (sequence / 20_000);
                  if (order.arrivedAfterLater(producer, partition, sequence)) {
                    marked.incrementAndGet();
                  }
                }
              }));
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(0, marked.get());
  }
}
