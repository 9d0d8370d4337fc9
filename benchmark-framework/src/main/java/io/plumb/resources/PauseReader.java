package io.plumb.resources;

import java.util.concurrent.atomic.AtomicLong;

/** One reader of its JVM's pauses, with the longest pause since its own previous read. */
final class PauseReader implements AutoCloseable {
  private final PauseSource source;
  private final LongestPause longest;
  private final AtomicLong longestSinceLastRead;

  PauseReader(PauseSource source, LongestPause longest) {
    this.source = source;
    this.longest = longest;
    this.longestSinceLastRead = longest.register();
  }

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
