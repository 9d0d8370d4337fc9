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
 * The fallback where JFR cannot start: the collectors' MXBeans, whose pause collectors are counted
 * (their counts and times) and whose notifications give each collection's duration. Collectors that
 * run beside the application ("ZGC Cycles", "Shenandoah Cycles", "G1 Concurrent GC") are left out;
 * G1's Remark and Cleanup pauses are in none of JDK 17's MXBeans, so this source misses them, as
 * its description says.
 */
final class MxBeanPauses implements PauseSource, NotificationListener {
  private final String whyNotJfr;
  private final LongestPause longest;
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final List<GarbageCollectorMXBean> pauseCollectors = new ArrayList<>();

  MxBeanPauses(String whyNotJfr, LongestPause longest) {
    this.whyNotJfr = whyNotJfr;
    this.longest = longest;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (concurrent(gc.getName())) {
        continue;
      }
      pauseCollectors.add(gc);
      if (gc instanceof NotificationEmitter emitter) {
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
        longest.record(info.getGcInfo().getDuration() * 1_000_000);
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
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean gc : pauseCollectors) {
      count += Math.max(0, gc.getCollectionCount());
      millis += Math.max(0, gc.getCollectionTime());
    }
    return new PauseTotals(count, millis * 1_000_000, longestSinceLastRead.getAndSet(0), Map.of());
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
