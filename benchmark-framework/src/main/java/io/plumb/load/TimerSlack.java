package io.plumb.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Linux lets a timed wait end up to the thread's timer slack (50 us by default) after it was due,
 * to batch wake-ups. A producer thread that parks until a send time wants to wake on time, so it
 * lowers its own slack to 1 us: a thread may change its own without privileges, through its entry
 * under /proc. Elsewhere, or when /proc is not writable, waits simply end later, and the send delay
 * measured shows it.
 */
final class TimerSlack {
  private static final String ONE_MICROSECOND = "1000";

  private TimerSlack() {}

  /** Lowers the calling thread's timer slack; returns whether it could. */
  static boolean minimiseForThisThread() {
    try {
      // /proc/thread-self is <pid>/task/<tid>; the slack file lives under /proc/<tid>.
      Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      Path slack = Path.of("/proc", self.getFileName().toString(), "timerslack_ns");
      Files.writeString(slack, ONE_MICROSECOND);
      return true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }
}
