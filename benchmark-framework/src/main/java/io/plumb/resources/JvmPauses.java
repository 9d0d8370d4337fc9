package io.plumb.resources;

/**
 * This JVM's stop-the-world pauses, recorded once for the JVM's life and read by every {@link
 * SnapshotReader} in it: pauses belong to the JVM, not to a run. Starting JFR costs some 17 MB of
 * short-lived heap and up to seconds of CPU; started per run, that came again with every run of a
 * sweep or a search, and ran beside each run's set-up, when a small heap is filling.
 *
 * <p>The recording starts with the first reader: in a worker JVM as its server starts, in the
 * coordinator's as its first run is created.
 */
public final class JvmPauses {
  private static final LongestPause LONGEST = new LongestPause();
  private static StartingPauses source;

  private JvmPauses() {}

  /** A reader of this JVM's pauses with its own longest pause; starts the recording if need be. */
  static synchronized PauseReader reader() {
    if (source == null) {
      source = StartingPauses.start(LONGEST);
    }
    return new PauseReader(source, LONGEST, LONGEST.register());
  }

  /**
   * Waits, up to {@code timeout}, until the recording has started (or its fallback has), so that
   * JFR's start, seconds of CPU on a small host, is over before a run's load begins; returns at
   * once where nothing started it.
   */
  public static void awaitStarted(java.time.Duration timeout) {
    StartingPauses starting;
    synchronized (JvmPauses.class) {
      starting = source;
    }
    if (starting != null) {
      starting.awaitSettled(timeout);
    }
  }

  /**
   * Stops recording for the rest of this JVM's life and releases what the recording holds, saying
   * {@code reason} wherever pauses are reported: for a JVM out of heap, whose every byte goes to
   * writing what it measured, where JFR's thread would go on parsing its buffers every second.
   */
  public static synchronized void stop(String reason) {
    if (source == null) {
      source = StartingPauses.stopped(reason);
    } else {
      source.stop(reason);
    }
  }
}
