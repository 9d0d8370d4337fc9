package io.plumb.loopback;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded queue of message copies from any number of producer threads to one consumer thread,
 * without locks: producers claim a slot by advancing the tail, copy the payload into the slot's own
 * array and publish it with the slot's sequence number (a bounded multi-producer queue in the style
 * of Dmitry Vyukov's). When it is full, producers wait: a slow consumer pushes back on them, as a
 * broker's bounded buffers would.
 */
final class DeliveryQueue {
  private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(long[].class);

  private final int mask;
  private final long[] sequences;
  private final byte[][] payloads;
  private final int[] partitions;
  private final AtomicLong tail = new AtomicLong();
  private long head;

  DeliveryQueue(int minimumCapacity) {
    int capacity = Integer.highestOneBit(Math.max(2, minimumCapacity - 1)) << 1;
    this.mask = capacity - 1;
    this.sequences = new long[capacity];
    this.payloads = new byte[capacity][];
    this.partitions = new int[capacity];
    for (int i = 0; i < capacity; i++) {
      sequences[i] = i;
    }
  }

  /** Copies {@code payload} in; waits while the queue is full. Any thread. */
  void put(byte[] payload, int partition) {
    long position;
    int slot;
    while (true) {
      position = tail.get();
      slot = (int) position & mask;
      long sequence = (long) SEQUENCES.getAcquire(sequences, slot);
      if (sequence == position) {
        if (tail.compareAndSet(position, position + 1)) {
          break;
        }
      } else if (sequence < position) {
        Thread.onSpinWait(); // full: the consumer has not freed this slot yet
      }
    }
    byte[] copy = payloads[slot];
    if (copy == null || copy.length != payload.length) {
      copy = new byte[payload.length];
      payloads[slot] = copy;
    }
    System.arraycopy(payload, 0, copy, 0, payload.length);
    partitions[slot] = partition;
    SEQUENCES.setRelease(sequences, slot, position + 1);
  }

  /**
   * Hands the oldest message to {@code sink} and frees its slot; false when empty. Consumer thread
   * only.
   */
  boolean poll(Sink sink) {
    int slot = (int) head & mask;
    if ((long) SEQUENCES.getAcquire(sequences, slot) != head + 1) {
      return false;
    }
    sink.accept(payloads[slot], partitions[slot]);
    SEQUENCES.setRelease(sequences, slot, head + mask + 1);
    head++;
    return true;
  }

  @FunctionalInterface
  interface Sink {
    void accept(byte[] payload, int partition);
  }
}
