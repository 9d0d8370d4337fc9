package io.plumb.load;

import io.plumb.stats.PublishRecorder;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Actual send times of one producer's messages that await completion, without allocating per
 * message: a ring indexed by sequence number, written by the producer's thread and read by
 * whichever thread completes the send.
 *
 * <p>Each slot holds (sequence, time); a reader trusts the time only if the slot still holds its
 * sequence before and after reading it (a seqlock). When more messages are in flight than the ring
 * holds, the oldest times are overwritten and their completions report {@link
 * PublishRecorder#UNKNOWN}, which is counted; publish latency stays exact because intended times
 * come from the {@link RateSchedule}.
 */
final class InFlightTimes {
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] slots;
  private final int mask;

  InFlightTimes(int minimumCapacity) {
    int capacity = Integer.highestOneBit(Math.max(2, minimumCapacity - 1)) << 1;
    this.slots = new long[capacity * 2];
    this.mask = capacity - 1;
    for (int i = 0; i < capacity; i++) {
      slots[i * 2] = -1;
    }
  }

  /**
   * Sizes the ring for about two seconds of sends, within 16 and 1,048,576 slots: a producer of a
   * many-topic workload sending a few messages a second needs a few hundred bytes, not 16 KB.
   */
  static InFlightTimes forRate(double messagesPerSecond) {
    long wanted = (long) Math.min(1 << 20, Math.max(16, messagesPerSecond * 2));
    return new InFlightTimes((int) wanted);
  }

  void put(long sequence, long sentAt) {
    int index = (int) (sequence & mask) * 2;
    SLOTS.setOpaque(slots, index, -1L);
    VarHandle.storeStoreFence();
    slots[index + 1] = sentAt;
    SLOTS.setRelease(slots, index, sequence);
  }

  long sentAt(long sequence) {
    int index = (int) (sequence & mask) * 2;
    if ((long) SLOTS.getAcquire(slots, index) != sequence) {
      return PublishRecorder.UNKNOWN;
    }
    long sentAt = slots[index + 1];
    VarHandle.loadLoadFence();
    if ((long) SLOTS.getOpaque(slots, index) != sequence) {
      return PublishRecorder.UNKNOWN;
    }
    return sentAt;
  }
}
