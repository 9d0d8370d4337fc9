package io.plumb.resources;

import io.plumb.driver.DaemonThreads;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A {@link PauseSource} that starts JFR on a daemon thread of its own (it can take seconds on a
 * busy host, which no caller should wait for), which then hands JFR's events over: until the first
 * events flow it reports no pauses and says so; if JFR cannot start, the collectors' MXBeans take
 * over, counted from that moment. Once {@link #stop stopped} it counts nothing more and says why.
 */
final class StartingPauses implements PauseSource {
  private static final PauseTotals NONE = new PauseTotals(0, 0, 0, Map.of());
  private static final String OUT_OF_HEAP = "neither JFR nor the MXBeans could start: out of heap";
  private static final String RECORDING_ENDED = "JFR's recording ended early; pauses since unseen";

  private final LongestPause longest;
  private final Function<LongestPause, JfrPauses> jfr;
  private JfrPauses opened; // guarded by this: stop closes it even before its first flush
  private volatile PauseSource started;
  private volatile String stopped;
  private volatile PauseTotals last = NONE;
  private final CountDownLatch settled = new CountDownLatch(1);

  private StartingPauses(LongestPause longest, Function<LongestPause, JfrPauses> jfr) {
    this.longest = longest;
    this.jfr = jfr;
  }

  /**
   * A source whose JFR starts now, on a daemon thread of its own that then hands JFR's events over
   * for the JVM's life.
   */
  static StartingPauses start(LongestPause longest) {
    return start(longest, JfrPauses::open);
  }

  /** The same with {@code jfr} opening JFR's recording: the fallback's tests make it fail. */
  static StartingPauses start(LongestPause longest, Function<LongestPause, JfrPauses> jfr) {
    StartingPauses pauses = new StartingPauses(longest, jfr);
    DaemonThreads.start("plumb-jfr", pauses::run);
    return pauses;
  }

  /** A source that never starts, for a JVM told to stop before anything read its pauses. */
  static StartingPauses stopped(String reason) {
    StartingPauses pauses = new StartingPauses(new LongestPause(), JfrPauses::open);
    pauses.stop(reason);
    return pauses;
  }

  /**
   * Waits up to {@code timeout} until JFR's first events flow, or its fallback took over, or it was
   * stopped: a run calls it before its load starts, so JFR's start (seconds of CPU on a small host)
   * overlaps the set-up, not the load.
   */
  void awaitSettled(Duration timeout) {
    try {
      settled.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try {
      record();
    } finally {
      settled.countDown(); // a recording that ended, or never began, is waited for no more
    }
  }

  private void record() {
    JfrPauses recording;
    try {
      recording = jfr.apply(longest);
    } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
      // JFR's start takes some 17 MB of heap, which a set-up filling a small heap may not leave.
      fallBack(e);
      return;
    }
    synchronized (this) {
      if (stopped != null) {
        recording.close();
        return;
      }
      opened = recording;
    }
    try {
      recording.record(() -> recording(recording));
    } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
      if (started == null) {
        synchronized (this) {
          opened = null;
        }
        recording.close();
        fallBack(e);
      } else {
        stop(RECORDING_ENDED);
      }
    }
  }

  private synchronized void recording(JfrPauses recording) {
    if (stopped == null) {
      started = recording;
    }
    settled.countDown();
  }

  /** The MXBeans, or where even they find no heap, nothing, its reason a constant. */
  private void fallBack(Throwable whyNotJfr) {
    PauseSource mxBeans;
    try {
      mxBeans = new MxBeanPauses("JFR could not start (" + whyNotJfr + ")", longest);
    } catch (OutOfMemoryError again) {
      stop(OUT_OF_HEAP);
      return;
    }
    synchronized (this) {
      if (stopped != null) {
        mxBeans.close();
      } else {
        started = mxBeans;
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
    settled.countDown(); // nothing to wait for once stopped
    if (stopped != null) {
      return;
    }
    stopped = reason;
    if (started != null && started != opened) {
      started.close(); // the MXBeans' listener
    }
    if (opened != null) {
      opened.close(); // JFR's recording, whose thread then ends
    }
    started = null;
    opened = null;
  }

  @Override
  public void close() {
    stop("closed");
  }
}
