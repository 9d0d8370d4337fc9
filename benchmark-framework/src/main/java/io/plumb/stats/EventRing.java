package io.plumb.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * What one thread reports (send completions, deliveries, errors), passed to the worker's {@link
 * StatsCollector} without locks or allocation: a single-producer, single-consumer ring of four-word
 * events. Only the owning thread writes; only the collector's thread reads.
 *
 * <p>Recording off the reporting thread is what lets one producer thread send at more than 10M
 * msg/s: the four histogram records and the sequence tracking per message run on the collector's
 * core instead of behind a lock on the sending or receiving thread.
 *
 * <p>While the owner is inside a driver's {@code send()} it may <em>defer</em> times: events are
 * written without a clock reading and stamped with the time send() returned, which the producer
 * loop reads anyway. A delivery or acknowledgement that happens inside send() is thereby timed a
 * few nanoseconds late rather than costing a second clock read per message.
 */
public final class EventRing {
  static final int ACK = 1;
  static final int DELIVERY = 2;
  static final int SEND_FAILED = 3;
  static final int CONSUMER_ERROR = 4;
  static final int FOREIGN = 5;
  static final int PROBE = 6;

  /**
   * Set in a DELIVERY event's first word when the consumer received it after a later message of the
   * same producer and partition: judged on the delivering thread, in arrival order, because the
   * order in which the collector drains different threads' rings says nothing about it. The type
   * needs six bits, so bit 62 is free.
   */
  private static final long AFTER_LATER = 1L << 62;

  private static final int WORDS = 4;
  private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

  // Tail (owner) and head (collector) live 128 bytes apart in one array, so neither side's writes
  // invalidate the cache line the other side writes.
  private static final int TAIL = 16;
  private static final int HEAD = 32;

  private final long[] events;
  private final int mask;
  private final long[] cursors = new long[48];
  private final Thread owner;
  private final BooleanSupplier collectorStopped;
  private final Runnable wakeCollector;

  /**
   * A producer loop publishes its stamped events in batches of this many: every publication moves
   * the tail's cache line to the collector's core and back, which at 10M msg/s cost more than the
   * events themselves. It also publishes before it waits for its schedule.
   */
  private static final int BATCH = 32;

  /**
   * The most producers, and the most subscriptions, one worker can record: an event carries the
   * worker-local index in 24 bits.
   */
  public static final int MAX_INDEXES = 1 << 24;

  // Owner-side state, in an array of its own with its slots well inside it: the collector reads
  // this object's fields on every pass, and an owner write to a field beside them would move that
  // cache line between cores on every event (measured: it halved the ring's throughput).
  private static final int OWN_TAIL = 8;
  private static final int OWN_KNOWN_HEAD = 9;
  private static final int OWN_PUBLISHED = 10;
  private static final int OWN_DEFERRED_FROM = 11;
  private static final int OWN_DEFERRING = 12;
  private static final int OWN_WOKEN_AT_HEAD = 13;
  private final long[] own = new long[24];

  /**
   * @param owner the only thread that writes to this ring
   * @param collectorStopped true once nobody will drain this ring again
   * @param wakeCollector wakes the collector from its wait between passes
   */
  EventRing(int capacity, Thread owner, BooleanSupplier collectorStopped, Runnable wakeCollector) {
    if (Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
    }
    this.events = new long[capacity * WORDS];
    this.mask = capacity - 1;
    this.owner = owner;
    this.collectorStopped = collectorStopped;
    this.wakeCollector = wakeCollector;
    own[OWN_WOKEN_AT_HEAD] = -1;
  }

  /**
   * True when {@code thread} is the one that writes to this ring; any thread may ask (see {@link
   * LastCallerRing}).
   */
  boolean ownedBy(Thread thread) {
    return owner == thread;
  }

  // ---- owner side ----

  /**
   * From now until {@link #stampDeferred}, events carry no time of their own and wait to be
   * published until a batch is full or {@link #flush} is called.
   */
  public void deferTimes() {
    own[OWN_DEFERRING] = 1;
    own[OWN_DEFERRED_FROM] = own[OWN_TAIL];
  }

  /** True while times are deferred: callers then skip their clock reading. */
  public boolean deferring() {
    return own[OWN_DEFERRING] != 0;
  }

  /** Gives every deferred event the time {@code time}; publishes them once a batch is full. */
  public void stampDeferred(long time) {
    long[] state = own;
    state[OWN_DEFERRING] = 0;
    long tail = state[OWN_TAIL];
    // A deferred event's last word holds what the time is to be subtracted from (the intended
    // time of a delivery, zero for everything else), so one subtraction stamps every kind.
    for (long sequence = state[OWN_DEFERRED_FROM]; sequence < tail; sequence++) {
      int last = (int) (sequence & mask) * WORDS + 3;
      events[last] = time - events[last];
    }
    if (tail - state[OWN_PUBLISHED] >= BATCH) {
      publishUpTo(tail);
    }
  }

  /** Hands every stamped event to the collector; a producer loop calls it before it waits. */
  public void flush() {
    if (own[OWN_PUBLISHED] != own[OWN_TAIL] && !deferring()) {
      publishUpTo(own[OWN_TAIL]);
    }
  }

  /**
   * A send of producer {@code producer} (worker-local index) to {@code partition} completed at
   * {@code completedAt}, or at the stamp when times are deferred.
   *
   * @param sentAt the actual send time, or {@link PublishRecorder#UNKNOWN}
   */
  public void acknowledged(
      int producer, long sequence, int partition, long intended, long sentAt, long completedAt) {
    putCompletion(ACK, producer, sequence, partition, intended, sentAt, completedAt);
  }

  /**
   * A send to {@code partition} failed (at {@code failedAt}, or at the stamp when times are
   * deferred).
   */
  public void sendFailed(
      int producer, long sequence, int partition, long intended, long sentAt, long failedAt) {
    putCompletion(SEND_FAILED, producer, sequence, partition, intended, sentAt, failedAt);
  }

  private void putCompletion(
      int type, int producer, long sequence, int partition, long intended, long sentAt, long at) {
    put(
        header(type, producer, (int) sequence),
        intended,
        sendWord(partition, intended, sentAt),
        deferring() ? 0 : at);
  }

  /** An acknowledgement whose partition is unknown. */
  public void acknowledged(
      int producer, long sequence, long intended, long sentAt, long completedAt) {
    acknowledged(producer, sequence, -1, intended, sentAt, completedAt);
  }

  /** A failed send whose partition and actual send time are unknown. */
  public void sendFailed(int producer, long sequence, long intended, long failedAt) {
    sendFailed(producer, sequence, -1, intended, PublishRecorder.UNKNOWN, failedAt);
  }

  // A completion's third word holds the partition and the actual send time, so the ring keeps its
  // four words per event: the partition plus one in the top 16 bits (0: unknown, as is any
  // partition that does not fit), and the actual send time as a 48-bit signed offset from the
  // intended time (about +-39 hours; the most negative value marks an unknown send time).
  private static final int OFFSET_BITS = 48;
  private static final long OFFSET_UNKNOWN = -(1L << (OFFSET_BITS - 1));
  private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
  private static final int PARTITION_LIMIT = (1 << (64 - OFFSET_BITS)) - 1;

  static long sendWord(int partition, long intended, long sentAt) {
    long offset = sentAt - intended;
    if (sentAt == PublishRecorder.UNKNOWN
        || offset <= OFFSET_UNKNOWN
        || offset > -OFFSET_UNKNOWN - 1) {
      offset = OFFSET_UNKNOWN;
    }
    long tag = partition >= 0 && partition < PARTITION_LIMIT ? partition + 1L : 0;
    return (tag << OFFSET_BITS) | (offset & OFFSET_MASK);
  }

  static int partitionOf(long sendWord) {
    return (int) (sendWord >>> OFFSET_BITS) - 1;
  }

  static long sentAtOf(long sendWord, long intended) {
    long offset = (sendWord << (64 - OFFSET_BITS)) >> (64 - OFFSET_BITS);
    return offset == OFFSET_UNKNOWN ? PublishRecorder.UNKNOWN : intended + offset;
  }

  /**
   * A delivery to subscription {@code subscription} (worker-local index) received at {@code
   * receivedAt}, or at the stamp when times are deferred; {@code afterLater} says that the consumer
   * received this message after a later one of the same producer and partition. The partition
   * itself is not carried: the order it matters for is judged before the event is written.
   */
  public void delivered(
      int subscription,
      int producerId,
      int length,
      long sequence,
      long intended,
      long receivedAt,
      boolean afterLater) {
    put(
        header(DELIVERY, subscription, 0) | (afterLater ? AFTER_LATER : 0),
        ((long) producerId << 32) | (length & 0xFFFF_FFFFL),
        sequence,
        deferring() ? intended : receivedAt - intended);
  }

  public void consumerError(int subscription) {
    put(header(CONSUMER_ERROR, subscription, 0), 0, 0, 0);
  }

  public void foreign(int subscription) {
    put(header(FOREIGN, subscription, 0), 0, 0, 0);
  }

  public void probe(int subscription) {
    put(header(PROBE, subscription, 0), 0, 0, 0);
  }

  /**
   * The first word: type, producer or subscription index, and {@code low} (a completion's low 32
   * bits of the sequence number, else 0).
   */
  private static long header(int type, int index, int low) {
    return ((long) type << 56) | ((long) (index & 0xFF_FFFF) << 32) | (low & 0xFFFF_FFFFL);
  }

  private void put(long w0, long w1, long w2, long w3) {
    long[] state = own;
    long tail = state[OWN_TAIL];
    if (tail - state[OWN_KNOWN_HEAD] > mask) {
      awaitSpace(tail);
    }
    int base = (int) (tail & mask) * WORDS;
    events[base] = w0;
    events[base + 1] = w1;
    events[base + 2] = w2;
    events[base + 3] = w3;
    state[OWN_TAIL] = tail + 1;
    if (state[OWN_DEFERRING] == 0) {
      publishUpTo(tail + 1);
    }
  }

  private void publishUpTo(long end) {
    long[] state = own;
    state[OWN_PUBLISHED] = end;
    WORD.setRelease(cursors, TAIL, end);
    if (end - state[OWN_KNOWN_HEAD] > (mask >> 1)) {
      wakeCollectorIfHalfFull(end);
    }
  }

  /**
   * The collector waits up to a few milliseconds between passes, which a producer at millions of
   * messages a second fills a ring in: left to its own time it would find the ring full and the
   * producer waiting. So the owner wakes it once the ring is half full, once per position of the
   * collector (the head is read only when the owner's stale copy says half full).
   */
  private void wakeCollectorIfHalfFull(long end) {
    long[] state = own;
    long head = (long) WORD.getAcquire(cursors, HEAD);
    state[OWN_KNOWN_HEAD] = head;
    if (end - head > (mask >> 1) && state[OWN_WOKEN_AT_HEAD] != head) {
      state[OWN_WOKEN_AT_HEAD] = head;
      wakeCollector.run();
    }
  }

  /**
   * The collector is behind by a whole ring: wait for it, so that nothing is ever dropped. When the
   * collector has stopped for good (the worker closed), a late callback's events are discarded
   * instead of blocking a driver thread forever.
   */
  private void awaitSpace(long tail) {
    // Deferred events stay unpublished until stamped; a single send() never reports anywhere near
    // a ring's worth of events, so publishing the stamped ones always frees enough space.
    publishUpTo(deferring() ? own[OWN_DEFERRED_FROM] : tail);
    int spins = 0;
    long head;
    while (tail - (head = (long) WORD.getAcquire(cursors, HEAD)) > mask) {
      if (collectorStopped.getAsBoolean()) {
        head = tail - mask;
        break;
      }
      // Spin briefly, then yield (on a one-core host that is what lets the collector run), and
      // only then park.
      spins++;
      if (spins < 100) {
        Thread.onSpinWait();
      } else if (spins < 10_000) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(10_000);
      }
    }
    own[OWN_KNOWN_HEAD] = head;
  }

  // ---- collector side ----

  /** False once the owning thread has ended: after one more drain, the ring stays empty. */
  boolean ownerAlive() {
    return owner.isAlive();
  }

  /** Hands every published event to {@code sink}; returns how many there were. */
  int drainTo(EventSink sink) {
    long head = (long) WORD.getOpaque(cursors, HEAD);
    long available = (long) WORD.getAcquire(cursors, TAIL);
    if (head == available) {
      return 0;
    }
    for (long sequence = head; sequence < available; sequence++) {
      int base = (int) (sequence & mask) * WORDS;
      long w0 = events[base];
      int index = (int) ((w0 >>> 32) & 0xFF_FFFF);
      int type = type(w0);
      switch (type) {
        case ACK, SEND_FAILED -> {
          long intended = events[base + 1];
          long sent = events[base + 2];
          int partition = partitionOf(sent);
          long sentAt = sentAtOf(sent, intended);
          long at = events[base + 3];
          if (type == ACK) {
            sink.acknowledged(index, (int) w0, partition, intended, sentAt, at);
          } else {
            sink.sendFailed(index, (int) w0, partition, intended, sentAt, at);
          }
        }
        case DELIVERY -> {
          long w1 = events[base + 1];
          sink.delivered(
              index,
              (int) (w1 >>> 32),
              (int) w1,
              events[base + 2],
              events[base + 3],
              (w0 & AFTER_LATER) != 0);
        }
        case CONSUMER_ERROR -> sink.consumerError(index);
        case FOREIGN -> sink.foreign(index);
        case PROBE -> sink.probe(index);
        default -> throw new IllegalStateException("corrupt event ring: type " + type);
      }
    }
    WORD.setRelease(cursors, HEAD, available);
    return (int) (available - head);
  }

  private static int type(long w0) {
    return (int) (w0 >>> 56) & 0x3F;
  }
}
