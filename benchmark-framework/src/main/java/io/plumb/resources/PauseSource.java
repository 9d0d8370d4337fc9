package io.plumb.resources;

/**
 * Where this JVM's stop-the-world pauses are read: JFR's pause events where JFR can start (they see
 * every pause, G1's Remark and Cleanup included), else the collectors' MXBeans, which do not.
 */
interface PauseSource extends AutoCloseable {

  /** Which source this is, and what it misses, for the result. */
  String description();

  /** The totals now; the longest pause covers the time since the previous read. */
  PauseTotals read();

  @Override
  void close();

  /**
   * JFR, started on a thread of its own (it can take seconds on a busy host, which no caller should
   * wait for), else the MXBeans with the reason JFR could not be used.
   */
  static PauseSource open() {
    return new StartingPauses();
  }
}
