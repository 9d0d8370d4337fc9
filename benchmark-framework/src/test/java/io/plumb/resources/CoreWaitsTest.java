package io.plumb.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watched thread's longest wait for a core is the largest growth of its run delay between two
 * readings, read from a file shaped like Linux's schedstat (run time, run delay, time slices).
 * Other tests' producer threads may be watched at the same time, and a worker server's host-stall
 * thread may be reading them, so these read their own threads' figures, or look for a wait far
 * longer than any real one.
 */
@Tag("host-timing")
class CoreWaitsTest {
  @TempDir Path dir;

  /**
   * Writes a schedstat file in place, always as many bytes (the run delay zero-padded), in one
   * write without truncating: the host-stall thread reads it every millisecond through a channel it
   * keeps open, and a rewrite that truncated first let it read an empty file now and then, which
   * ends the watch as a thread that ended would (the run delay it then missed read 0).
   */
  private Path schedstat(String name, long runDelay) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(
        file,
        String.format("123456 %019d 42\n", runDelay),
        StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    return file;
  }

  @Test
  void theGrowthSinceThePreviousReadingIsTheWait() throws Exception {
    Path file = schedstat("producer", 1_000);
    try (CoreWaits.Watched thread = CoreWaits.open(file)) {
      assertEquals(0, thread.growth(), "the first reading is only the base");
      schedstat("producer", 4_001_000);
      assertEquals(4_000_000, thread.growth());
      assertEquals(0, thread.growth(), "nothing grew since");
      schedstat("producer", 4_501_000);
      assertEquals(500_000, thread.growth());
    }
  }

  @Test
  void aThreadWhoseFileIsGoneIsNoLongerWatched() throws Exception {
    Path file = schedstat("ended", 1_000);
    int before = CoreWaits.watched();
    AutoCloseable watch = CoreWaits.watch(file);
    assertEquals(before + 1, CoreWaits.watched());
    Files.writeString(file, "");
    assertEquals(0, ((CoreWaits.Watched) watch).growth());
    assertEquals(before, CoreWaits.watched(), "an unreadable file ends the watch");
    watch.close();
    assertEquals(before, CoreWaits.watched());
  }

  @Test
  void theHostStallThreadReportsTheLongestWaitToEachReaderOnce() throws Exception {
    long wait = 3_210_000_000L;
    Path file = schedstat("producer", 0);
    try (AutoCloseable watch = CoreWaits.watch(file);
        HostStalls.Reader reader = HostStalls.open()) {
      awaitWakeUps(2);
      schedstat("producer", wait);
      awaitWakeUps(2);
      assertEquals(wait, reader.read().longestCoreWaitNanos());
      assertTrue(reader.read().longestCoreWaitNanos() < wait, "a read resets the reader's longest");
    }
  }

  /**
   * Waits until the host-stall thread has woken {@code count} more times (five seconds at most).
   */
  private static void awaitWakeUps(int count) throws InterruptedException {
    long until = HostStalls.wakeUps() + count;
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (HostStalls.wakeUps() < until && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertTrue(HostStalls.wakeUps() >= until, "the host-stall thread did not wake");
  }
}
