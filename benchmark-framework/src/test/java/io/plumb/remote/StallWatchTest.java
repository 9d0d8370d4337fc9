package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StallWatchTest {
  private static final long SECOND = Duration.ofSeconds(1).toNanos();

  @Test
  void ticksOnTimeAreNoStall() {
    StallWatch watch = new StallWatch(Duration.ofSeconds(3), 0);
    assertEquals(0, watch.tick(SECOND));
    assertEquals(0, watch.tick(4 * SECOND), "a gap of exactly the stall is not one");
  }

  @Test
  void aLongGapIsToldAsItIs() {
    StallWatch watch = new StallWatch(Duration.ofSeconds(3), 0);
    assertEquals(0, watch.tick(SECOND));
    assertEquals(16 * SECOND, watch.tick(17 * SECOND));
    assertEquals(0, watch.tick(18 * SECOND), "the next tick on time is no stall");
  }
}
