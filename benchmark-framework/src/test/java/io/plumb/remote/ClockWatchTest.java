package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClockWatchTest {

  @Test
  void onceClosedItMeasuresNothingAndThrowsNothing() {
    AtomicInteger measurements = new AtomicInteger();
    ClockWatch watch = counting(measurements::incrementAndGet, Duration.ZERO);
    watch.offsetsInUse();
    watch.close();
    // The run's teardown closes the ensemble; a stop after it used to meet a terminated executor.
    watch.measureNow();
    watch.periodTaken();
    watch.close();
    assertEquals(0, measurements.get());
  }

  @Test
  void betweenPeriodsItChecksOnlyOnceTheOffsetsAreInUseAndOnlyWhenDue() throws Exception {
    Semaphore measured = new Semaphore(0);
    ClockWatch due = counting(measured::release, Duration.ZERO);
    try (due) {
      due.periodTaken();
      assertEquals(0, measured.availablePermits(), "offsets not in use yet: nothing to check");
      due.offsetsInUse();
      due.periodTaken();
      assertTrue(measured.tryAcquire(10, TimeUnit.SECONDS), "a check after the period");
    }

    AtomicInteger early = new AtomicInteger();
    try (ClockWatch notDue = counting(early::incrementAndGet, Duration.ofHours(1))) {
      notDue.offsetsInUse();
      notDue.periodTaken();
      // Measured now, on the watch's thread, and returning only once done.
      notDue.measureNow();
      assertEquals(1, early.get(), "only the measurement asked for; the period's was not due");
    }
  }

  /**
   * A watch over no workers, due {@code every}, that tells {@code measured} of each measurement.
   */
  private static ClockWatch counting(Runnable measured, Duration every) {
    return new ClockWatch(
        () -> {
          measured.run();
          return List.of();
        },
        every);
  }
}
