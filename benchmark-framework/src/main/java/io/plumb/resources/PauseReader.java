package io.plumb.resources;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One reader of its JVM's pauses, with the longest pause since its own previous read.
 *
 * @param longestSinceLastRead this reader's slot, registered with {@code longest}
 */
record PauseReader(PauseSource source, LongestPause longest, AtomicLong longestSinceLastRead)
    implements AutoCloseable {

  PauseTotals read() {
    return source.read(longestSinceLastRead);
  }

  String description() {
    return source.description();
  }

  /** Leaves the JVM's recording running: other readers, and later runs, still read it. */
  @Override
  public void close() {
    longest.unregister(longestSinceLastRead);
  }
}
