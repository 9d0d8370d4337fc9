package io.plumb.resources;

import java.util.Map;

/**
 * A {@link PauseSource} that starts JFR on a thread of its own: until JFR is recording it reports
 * no pauses and says so; if JFR cannot start, the collectors' MXBeans take over, counted from that
 * moment, so no earlier collection lands in a period.
 */
final class StartingPauses implements PauseSource {
  private static final PauseTotals NONE = new PauseTotals(0, 0, 0, Map.of());

  private volatile PauseSource started;
  private volatile boolean closed;
  private volatile PauseTotals baseline = NONE;

  StartingPauses() {
    Thread starter = new Thread(this::start, "plumb-jfr-start");
    starter.setDaemon(true);
    starter.start();
  }

  private void start() {
    PauseSource source;
    try {
      source = JfrPauses.start();
    } catch (RuntimeException | LinkageError e) {
      source = new MxBeanPauses("JFR could not start (" + e + ")");
      baseline = source.read();
    }
    synchronized (this) {
      if (closed) {
        source.close();
      } else {
        started = source;
      }
    }
  }

  @Override
  public String description() {
    PauseSource source = started;
    return source == null
        ? "JFR " + JfrPauses.EVENT + " (still starting: none seen yet)"
        : source.description();
  }

  @Override
  public PauseTotals read() {
    PauseSource source = started;
    if (source == null) {
      return NONE;
    }
    PauseTotals now = source.read();
    PauseTotals from = baseline;
    return new PauseTotals(
        now.count() - from.count(),
        now.nanos() - from.nanos(),
        now.longestNanos(),
        now.countByKind());
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (started != null) {
      started.close();
      started = null;
    }
  }
}
