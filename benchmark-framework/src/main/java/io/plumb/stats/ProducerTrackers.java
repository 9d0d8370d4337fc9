package io.plumb.stats;

import java.util.Arrays;

/**
 * One subscription's {@link SequenceTracker}s, by producer id: an open-addressing table sized by
 * the producers actually heard from. Producer ids are dense across the whole run, so an array
 * indexed by id would cost every subscription a slot for every producer of every topic; with a
 * million topics of four producers each, that is 16 MB per subscription.
 *
 * <p>Not thread-safe: the owning {@link SubscriptionRecorder} serialises calls.
 */
final class ProducerTrackers {
  private static final int EMPTY = -1;

  private int[] ids = newIds(4);
  private SequenceTracker[] trackers = new SequenceTracker[4];
  private int size;

  // The last producer looked up: consecutive deliveries usually come from the same one.
  private int lastId = EMPTY;
  private SequenceTracker last;

  /** The tracker of {@code producerId}, created on first use. */
  SequenceTracker of(int producerId) {
    if (producerId == lastId) {
      return last;
    }
    int slot = slotOf(ids, producerId);
    SequenceTracker tracker;
    if (ids[slot] == producerId) {
      tracker = trackers[slot];
    } else {
      if ((size + 1) * 4 > ids.length * 3) {
        grow();
        slot = slotOf(ids, producerId);
      }
      tracker = new SequenceTracker();
      ids[slot] = producerId;
      trackers[slot] = tracker;
      size++;
    }
    lastId = producerId;
    last = tracker;
    return tracker;
  }

  /** The tracker of {@code producerId}, or null if nothing came from it. */
  SequenceTracker find(int producerId) {
    int slot = slotOf(ids, producerId);
    return ids[slot] == producerId ? trackers[slot] : null;
  }

  /** Every producer id heard from, ascending. */
  int[] ids() {
    return Arrays.stream(ids).filter(id -> id != EMPTY).sorted().toArray();
  }

  private void grow() {
    int[] oldIds = ids;
    SequenceTracker[] oldTrackers = trackers;
    ids = newIds(oldIds.length * 2);
    trackers = new SequenceTracker[oldIds.length * 2];
    for (int i = 0; i < oldIds.length; i++) {
      if (oldIds[i] != EMPTY) {
        int slot = slotOf(ids, oldIds[i]);
        ids[slot] = oldIds[i];
        trackers[slot] = oldTrackers[i];
      }
    }
  }

  /** The slot holding {@code id}, or the empty slot where it would go (linear probing). */
  private static int slotOf(int[] ids, int id) {
    int mask = ids.length - 1;
    int hash = id * 0x9E3779B9;
    int slot = (hash ^ hash >>> 16) & mask;
    while (ids[slot] != EMPTY && ids[slot] != id) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private static int[] newIds(int capacity) {
    int[] ids = new int[capacity];
    Arrays.fill(ids, EMPTY);
    return ids;
  }
}
