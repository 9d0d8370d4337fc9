package io.plumb.resources;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Where this JVM's stop-the-world pauses are read: JFR's pause events where JFR can start (they see
 * every pause, G1's Remark and Cleanup included), else the collectors' MXBeans, which do not. One
 * source serves the whole JVM ({@link JvmPauses}); each reader keeps its own longest pause.
 */
interface PauseSource extends AutoCloseable {

  /** Which source this is, and what it misses, for the result. */
  String description();

  /**
   * The totals since the source started, with the longest pause since the reader's previous read.
   *
   * @param longestSinceLastRead the reader's own cell in the source's {@link LongestPause}, reset
   *     by this read
   */
  PauseTotals read(AtomicLong longestSinceLastRead);

  @Override
  void close();
}
