package io.plumb.resources;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/**
 * Every garbage-collection pause of this JVM from JFR's {@code jdk.GCPhasePause} event, which the
 * collectors emit for each stop-the-world pause only: G1's young, mixed, full, Remark and Cleanup
 * pauses, ZGC's and Shenandoah's short pauses, never their concurrent phases (the collectors'
 * MXBeans miss G1's Remark and Cleanup on JDK 17 and count ZGC's concurrent cycles).
 *
 * <p>Only this one event is enabled, with no threshold and no stack trace: a few events per
 * collection, so the recording costs next to nothing. JFR hands events over at its flush, once a
 * second on JDK 17: a pause in the last second before a read is counted at the next one.
 */
final class JfrPauses implements PauseSource {
  static final String EVENT = "jdk.GCPhasePause";

  private final RecordingStream stream;
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong nanos = new AtomicLong();
  private final AtomicLong longestNanos = new AtomicLong();
  private final Map<String, LongAdder> byKind = new ConcurrentHashMap<>();

  private JfrPauses(RecordingStream stream) {
    this.stream = stream;
  }

  static JfrPauses start() {
    RecordingStream stream = new RecordingStream();
    try {
      stream.enable(EVENT).withoutStackTrace().withThreshold(Duration.ZERO);
      // Nothing is kept for longer than the stream needs to hand it over.
      stream.setMaxAge(Duration.ofSeconds(10));
      JfrPauses pauses = new JfrPauses(stream);
      stream.onEvent(EVENT, pauses::record);
      stream.startAsync();
      return pauses;
    } catch (RuntimeException e) {
      stream.close();
      throw e;
    }
  }

  private void record(RecordedEvent event) {
    long duration = event.getDuration().toNanos();
    count.incrementAndGet();
    nanos.addAndGet(duration);
    longestNanos.accumulateAndGet(duration, Math::max);
    byKind.computeIfAbsent(kind(event.getString("name")), k -> new LongAdder()).increment();
  }

  /** "Pause Young (Normal) (G1 Evacuation Pause)" is a "Pause Young": causes vary, kinds do not. */
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
  public PauseTotals read() {
    Map<String, Long> kinds = new java.util.TreeMap<>();
    byKind.forEach((kind, adder) -> kinds.put(kind, adder.sum()));
    return new PauseTotals(count.get(), nanos.get(), longestNanos.getAndSet(0), kinds);
  }

  @Override
  public void close() {
    stream.close();
  }
}
