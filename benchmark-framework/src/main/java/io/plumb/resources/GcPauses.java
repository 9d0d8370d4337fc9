package io.plumb.resources;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The longest single collection of this JVM since the last {@link #takeLongestMillis}: the
 * collectors' MXBeans give counts and total time only, so each collection's duration comes from the
 * JVM's GC notifications. Closed at the end of the run so no listener outlives it.
 */
final class GcPauses implements NotificationListener, AutoCloseable {
  private final AtomicLong longestMillis = new AtomicLong();
  private final List<NotificationEmitter> emitters = new ArrayList<>();

  GcPauses() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(this, null, null);
        emitters.add(emitter);
      }
    }
  }

  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      GarbageCollectionNotificationInfo info =
          GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
      // G1's and ZGC's concurrent cycles run beside the application: not pauses.
      if (!info.getGcName().contains("Concurrent")) {
        longestMillis.accumulateAndGet(info.getGcInfo().getDuration(), Math::max);
      }
    }
  }

  long takeLongestMillis() {
    return longestMillis.getAndSet(0);
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
