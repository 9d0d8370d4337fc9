package io.plumb.resources;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/**
 * Every garbage-collection pause of this JVM from JFR's {@code jdk.GCPhasePause} event, which the
 * collectors emit for each stop-the-world pause only: G1's young, mixed and full pauses (all three
 * named "GC Pause"), its Remark and Cleanup pauses, ZGC's and Shenandoah's short pauses, never
 * their concurrent phases (the collectors' MXBeans miss G1's Remark and Cleanup on JDK 17 and count
 * ZGC's concurrent cycles).
 *
 * <p>Only this one event is enabled, with no threshold and no stack trace. The collectors write it
 * from native code, so nothing runs on the threads that send and receive messages. JFR's threads
 * and the one handing its events over ({@link #record}) parse its buffers once a second (JDK 17's
 * flush): about 10 ms of CPU and 40 KB of heap in 10 s of a JVM collecting steadily, as measured on
 * JDK 17; a pause in the last second before a read is counted at the next one. Starting costs more
 * (some 17 MB of short-lived heap and up to seconds of CPU), which is why a JVM starts it once
 * ({@link JvmPauses}).
 */
final class JfrPauses implements PauseSource {
  static final String EVENT = "jdk.GCPhasePause";

  private final RecordingStream stream;
  private final LongestPause longest;
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong nanos = new AtomicLong();
  private final Map<String, LongAdder> byKind = new ConcurrentHashMap<>();

  private JfrPauses(RecordingStream stream, LongestPause longest) {
    this.stream = stream;
    this.longest = longest;
  }

  /** The recording with its one event, not started: most of JFR's start cost is here. */
  static JfrPauses open(LongestPause longest) {
    RecordingStream stream = new RecordingStream();
    try {
      stream.enable(EVENT).withoutStackTrace().withThreshold(Duration.ZERO);
      // Nothing is kept for longer than the stream needs to hand it over.
      stream.setMaxAge(Duration.ofSeconds(10));
      JfrPauses pauses = new JfrPauses(stream, longest);
      stream.onEvent(EVENT, pauses::count);
      return pauses;
    } catch (RuntimeException | Error e) {
      // Out of heap included: a half-opened recording would hold its repository.
      stream.close();
      throw e;
    }
  }

  /**
   * Records on the calling thread until {@link #close}. Not on a thread of JFR's own ({@code
   * startAsync}): that one is no daemon, and kept alive every JVM whose main returned without
   * calling exit, a worker's test JVM among them. {@code recording} runs at the first flush, once
   * events flow.
   */
  void record(Runnable recording) {
    AtomicBoolean flushed = new AtomicBoolean();
    stream.onFlush(
        () -> {
          if (flushed.compareAndSet(false, true)) {
            recording.run();
          }
        });
    stream.start();
  }

  private void count(RecordedEvent event) {
    long duration = event.getDuration().toNanos();
    count.incrementAndGet();
    nanos.addAndGet(duration);
    longest.record(duration);
    byKind.computeIfAbsent(kind(event.getString("name")), k -> new LongAdder()).increment();
  }

  /** A name with a cause in brackets counts as its kind: causes vary, kinds do not. */
  static String kind(String name) {
    if (name == null) {
      return "unnamed";
    }
    int cause = name.indexOf(" (");
    return cause < 0 ? name : name.substring(0, cause);
  }

  @Override
  public String description() {
    return "JFR " + EVENT + " (every stop-the-world GC pause)";
  }

  @Override
  public PauseTotals read(AtomicLong longestSinceLastRead) {
    Map<String, Long> kinds = new TreeMap<>();
    byKind.forEach((kind, adder) -> kinds.put(kind, adder.sum()));
    return new PauseTotals(count.get(), nanos.get(), longestSinceLastRead.getAndSet(0), kinds);
  }

  @Override
  public void close() {
    stream.close();
  }
}
