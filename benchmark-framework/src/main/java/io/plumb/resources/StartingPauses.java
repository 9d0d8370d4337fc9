package io.plumb.resources;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A {@link PauseSource} that starts JFR on a thread of its own (it can take seconds on a busy host,
 * which no caller should wait for): until JFR is recording it reports no pauses and says so; if JFR
 * cannot start, the collectors' MXBeans take over, counted from that moment. Once {@link #stop
 * stopped} it counts nothing more and says why.
 */
final class StartingPauses implements PauseSource {
  private static final PauseTotals NONE = new PauseTotals(0, 0, 0, Map.of());
  private static final String OUT_OF_HEAP = "neither JFR nor the MXBeans could start: out of heap";

  private final LongestPause longest;
  private final Function<LongestPause, PauseSource> jfr;
  private volatile PauseSource started;
  private volatile String stopped;
  private volatile PauseTotals last = NONE;

  private StartingPauses(LongestPause longest, Function<LongestPause, PauseSource> jfr) {
    this.longest = longest;
    this.jfr = jfr;
  }

  /** A source whose JFR starts now, on a thread of its own. */
  static StartingPauses start(LongestPause longest) {
    return start(longest, JfrPauses::start);
  }

  /** The same with {@code jfr} starting JFR's source: the fallback's tests make it fail. */
  static StartingPauses start(LongestPause longest, Function<LongestPause, PauseSource> jfr) {
    StartingPauses pauses = new StartingPauses(longest, jfr);
    Thread starter = new Thread(pauses::start, "plumb-jfr-start");
    starter.setDaemon(true);
    starter.start();
    return pauses;
  }

  /** A source that never starts, for a JVM told to stop before anything read its pauses. */
  static StartingPauses stopped(String reason) {
    StartingPauses pauses = new StartingPauses(new LongestPause(), JfrPauses::start);
    pauses.stop(reason);
    return pauses;
  }

  private void start() {
    PauseSource source;
    try {
      source = jfr.apply(longest);
    } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
      // JFR's start takes some 17 MB of heap, which a set-up filling a small heap may not leave;
      // then even the fallback may find none, and this thread ends quietly, its reason a constant.
      try {
        source = new MxBeanPauses("JFR could not start (" + e + ")", longest);
      } catch (OutOfMemoryError again) {
        stop(OUT_OF_HEAP);
        return;
      }
    }
    synchronized (this) {
      if (stopped != null) {
        source.close();
      } else {
        started = source;
      }
    }
  }

  @Override
  public String description() {
    String reason = stopped;
    if (reason != null) {
      return "none: " + reason;
    }
    PauseSource source = started;
    return source == null
        ? "JFR " + JfrPauses.EVENT + " (still starting: none seen yet)"
        : source.description();
  }

  @Override
  public PauseTotals read(AtomicLong longestSinceLastRead) {
    PauseSource source = started;
    if (source == null) {
      // Not started yet, or stopped: the counts stay where they were.
      PauseTotals frozen = last;
      return new PauseTotals(
          frozen.count(), frozen.nanos(), longestSinceLastRead.getAndSet(0), frozen.countByKind());
    }
    PauseTotals now = source.read(longestSinceLastRead);
    last = now;
    return now;
  }

  /**
   * Counts nothing more, for the rest of this JVM's life, and releases the recording: its heap, its
   * thread, its files. Reads from now on give the counts as they were, and the description {@code
   * reason}.
   */
  synchronized void stop(String reason) {
    if (stopped != null) {
      return;
    }
    stopped = reason;
    if (started != null) {
      started.close();
      started = null;
    }
  }

  @Override
  public void close() {
    stop("closed");
  }
}
