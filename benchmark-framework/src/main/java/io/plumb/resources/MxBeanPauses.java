package io.plumb.resources;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The fallback where JFR cannot start: the collectors' MXBeans, each collection of a pause
 * collector counted from its notification. Collectors that run beside the application ("ZGC
 * Cycles", "Shenandoah Cycles", "G1 Concurrent GC") are left out; G1's Remark and Cleanup pauses
 * are in none of JDK 17's MXBeans, so this source misses them, as its description says.
 *
 * <p>Count, time and longest pause all come from the notifications, which arrive a moment after
 * each collection: read from the collectors' counters instead, a collection could be counted in one
 * period and its duration land as the longest pause of the next, which counted none.
 */
final class MxBeanPauses implements PauseSource, NotificationListener {
  private final String whyNotJfr;
  private final LongestPause longest;
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong nanos = new AtomicLong();
  private final List<NotificationEmitter> emitters = new ArrayList<>();

  /** Counts from now on: no earlier collection lands in a period. */
  MxBeanPauses(String whyNotJfr, LongestPause longest) {
    this.whyNotJfr = whyNotJfr;
    this.longest = longest;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (!concurrent(gc.getName()) && gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(this, null, null);
        emitters.add(emitter);
      }
    }
  }

  static boolean concurrent(String collector) {
    return collector.contains("Cycles") || collector.contains("Concurrent");
  }

  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      GarbageCollectionNotificationInfo info =
          GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
      if (!concurrent(info.getGcName())) {
        long duration = info.getGcInfo().getDuration() * 1_000_000;
        count.incrementAndGet();
        nanos.addAndGet(duration);
        longest.record(duration);
      }
    }
  }

  @Override
  public String description() {
    return "GC MXBeans, millisecond resolution, without G1's Remark and Cleanup pauses: "
        + whyNotJfr;
  }

  @Override
  public PauseTotals read(AtomicLong longestSinceLastRead) {
    return new PauseTotals(count.get(), nanos.get(), longestSinceLastRead.getAndSet(0), Map.of());
  }

  @Override
  public void close() {
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(this);
      } catch (ListenerNotFoundException e) {
        // already gone: nothing to undo
      }
    }
    emitters.clear();
  }
}
