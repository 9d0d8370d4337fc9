package io.plumb.worker;

import java.util.Arrays;

/**
 * One consumer's judge of ordering, in the order its messages arrive: the highest sequence number
 * it has received per (producer, partition), so that a message arriving after a later one of the
 * same producer and partition is known as such on the delivering thread. The statistics thread
 * cannot judge this: it sees each reporting thread's deliveries in turn, and a client that hands
 * one consumer's deliveries to several threads (RabbitMQ's amqp-client does) would look reordered.
 *
 * <p>Consumers can be millions, so this holds nothing until the first delivery, then a table of
 * {key, highest} pairs in one array, sized by the (producer, partition) pairs actually heard from.
 *
 * <p>A driver may call a listener from several threads at once (for example one thread per
 * partition queue), so the table is read without a lock: a known pair costs a few array reads and
 * one plain write, no allocation. Only a new pair takes the lock, to insert or grow. What races can
 * do is bounded: a value in a slot is always a sequence that really arrived for that slot's pair
 * (pairs never move within one array), so a race can only lose an update and miss a reordering
 * among messages delivered at the same instant on two threads, never invent one.
 */
final class ArrivalOrder {
  /** No pair has producer -1: the listener sets aside negative producer ids as foreign. */
  private static final long EMPTY = -1L;

  // Room for one pair: most consumers hear from one producer on one partition (many-topic runs).
  private static final int FIRST_PAIRS = 2;

  /** [key, highest] per slot; EMPTY keys are free slots. Null until the first delivery. */
  private volatile long[] table;

  private int pairs;

  /**
   * Records that {@code sequence} of {@code producer} arrived on {@code partition}; true when a
   * later message of the same producer and partition arrived before it.
   */
  boolean arrivedAfterLater(int producer, int partition, long sequence) {
    long key = ((long) producer << 32) | (partition & 0xFFFF_FFFFL);
    long[] slots = table;
    if (slots != null) {
      int mask = (slots.length >>> 1) - 1;
      int slot = slotOf(key, mask);
      long found;
      while ((found = slots[slot << 1]) != EMPTY) {
        if (found == key) {
          return after(slots, (slot << 1) + 1, sequence);
        }
        slot = (slot + 1) & mask;
      }
    }
    return arrivedFromNewPair(key, sequence);
  }

  /** A pair this thread did not find: look again under the lock, then insert it. */
  private synchronized boolean arrivedFromNewPair(long key, long sequence) {
    long[] slots = table;
    if (slots == null) {
      slots = newTable(FIRST_PAIRS);
    } else if ((pairs + 1) * 4 > (slots.length >>> 1) * 3) {
      slots = grown(slots);
    }
    int mask = (slots.length >>> 1) - 1;
    int slot = slotOf(key, mask);
    long found;
    while ((found = slots[slot << 1]) != EMPTY) {
      if (found == key) {
        boolean late = after(slots, (slot << 1) + 1, sequence);
        table = slots;
        return late;
      }
      slot = (slot + 1) & mask;
    }
    // The value first: a reader that sees the key early reads EMPTY (-1) as its highest.
    slots[(slot << 1) + 1] = sequence;
    slots[slot << 1] = key;
    pairs++;
    table = slots;
    return false;
  }

  private static boolean after(long[] slots, int highestAt, long sequence) {
    if (sequence < slots[highestAt]) {
      return true;
    }
    slots[highestAt] = sequence;
    return false;
  }

  private static long[] grown(long[] slots) {
    long[] grown = newTable(slots.length);
    int mask = (grown.length >>> 1) - 1;
    for (int i = 0; i < slots.length; i += 2) {
      if (slots[i] != EMPTY) {
        int slot = slotOf(slots[i], mask);
        while (grown[slot << 1] != EMPTY) {
          slot = (slot + 1) & mask;
        }
        grown[slot << 1] = slots[i];
        grown[(slot << 1) + 1] = slots[i + 1];
      }
    }
    return grown;
  }

  private static long[] newTable(int pairs) {
    long[] slots = new long[pairs * 2];
    Arrays.fill(slots, EMPTY);
    return slots;
  }

  private static int slotOf(long key, int mask) {
    long hash = key * 0x9E37_79B9_7F4A_7C15L;
    return (int) (hash >>> 40) & mask;
  }
}
