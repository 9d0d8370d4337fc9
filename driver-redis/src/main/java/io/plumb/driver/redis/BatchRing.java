package io.plumb.driver.redis;

import io.plumb.driver.SendListener;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The ring of reused batches between a {@link PipelinedProducer}'s send() and its sender thread:
 * send() encodes each message's command into the batch being filled, the sender takes whole batches
 * (or a part-filled one when it would otherwise idle) and frees each once its messages are
 * completed. Nothing is allocated per message.
 *
 * <p>Batch numbers, guarded by one lock: batch b lives in {@code ring[b % ring.length]}. Batches
 * below {@code released} are free; {@code released..shipped-1} are the sender's; {@code
 * shipped..sealed-1} are full and waiting; {@code sealed} is the one send() fills. send() waits
 * only when every batch is taken, which is the producer's backpressure; with {@code maxBlockNanos}
 * set it waits that long at most and then fails sends at once until there is room again.
 */
final class BatchRing {

  /** Initial room per command in a batch; batches grow to the largest message seen. */
  private static final int INITIAL_BYTES_PER_COMMAND = 1_200;

  private final CommandEncoder encoder;
  private final int depth;
  private final long maxBlockNanos; // 0: send() waits for room as long as it takes
  private final SendBatch[] ring;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private final Condition work = lock.newCondition();
  private long sealed;
  private long shipped;
  private long released;
  private boolean senderWaiting;
  private boolean callerWaiting;
  // The ring stayed full for maxBlockNanos: sends fail at once until there is room again.
  private boolean stalled;
  private Throwable closedBecause;

  /**
   * Room for {@code maxPendingSends} messages queued behind the two batches the sender holds (the
   * one in flight and the one it is completing).
   */
  BatchRing(CommandEncoder encoder, int depth, int maxPendingSends, long maxBlockNanos) {
    this.encoder = encoder;
    this.depth = depth;
    this.maxBlockNanos = maxBlockNanos;
    int queued = (maxPendingSends + depth - 1) / depth;
    this.ring = new SendBatch[queued + 2];
    for (int i = 0; i < ring.length; i++) {
      ring[i] = new SendBatch(depth, INITIAL_BYTES_PER_COMMAND);
    }
  }

  /**
   * Encodes a message into the batch being filled ({@code header} null for a plain send), waiting
   * for room as the class comment says.
   *
   * @return why the send fails, or null if it is queued
   */
  Throwable add(
      int partition, String key, byte[] header, byte[] payload, long token, SendListener listener) {
    lock.lock();
    try {
      Throwable failure = awaitRoom();
      if (failure != null) {
        return failure;
      }
      SendBatch batch = ring[(int) (sealed % ring.length)];
      if (header == null) {
        encoder.encode(batch.commands, partition, key, payload);
      } else {
        encoder.encode(batch.commands, partition, key, header, payload);
      }
      batch.added(token, partition, listener);
      if (batch.count() == depth) {
        sealed++;
      }
      if (senderWaiting) {
        senderWaiting = false;
        work.signal();
      }
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e;
    } finally {
      lock.unlock();
    }
  }

  /** Waits for room, at most {@code maxBlockNanos} if set. Called with the lock held. */
  private Throwable awaitRoom() throws InterruptedException {
    if (closedBecause == null && sealed - released < ring.length) {
      stalled = false;
      return null;
    }
    if (maxBlockNanos == 0) {
      while (closedBecause == null && sealed - released >= ring.length) {
        callerWaiting = true;
        room.await();
      }
      return closedBecause;
    }
    long left = stalled ? 0 : maxBlockNanos;
    while (closedBecause == null && sealed - released >= ring.length && left > 0) {
      callerWaiting = true;
      left = room.awaitNanos(left);
    }
    if (closedBecause != null) {
      return closedBecause;
    }
    if (sealed - released < ring.length) {
      stalled = false;
      return null;
    }
    stalled = true;
    return new NoRoom(ring.length * depth, TimeUnit.NANOSECONDS.toMillis(maxBlockNanos));
  }

  /** A send refused because the producer's queue stayed full: the server is not answering. */
  static final class NoRoom extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoRoom(int queued, long millis) {
      super(
          "send refused: the producer's "
              + queued
              + " queued sends have not moved for "
              + millis
              + " ms (maxBlockMillis); the server is not answering",
          null,
          false,
          false);
    }
  }

  /**
   * The next batch to write: a full one, else the partly filled one (sealed now), else null if
   * {@code wait} is false or the ring is closed and everything was taken.
   */
  SendBatch take(boolean wait) throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        if (shipped < sealed) {
          return ring[(int) (shipped++ % ring.length)];
        }
        SendBatch filling = ring[(int) (sealed % ring.length)];
        if (sealed - released < ring.length && filling.count() > 0) {
          sealed++;
          shipped++;
          return filling;
        }
        if (!wait || closedBecause != null) {
          return null;
        }
        senderWaiting = true;
        work.await();
      }
    } finally {
      senderWaiting = false;
      lock.unlock();
    }
  }

  /** Completes the oldest batch the sender holds and frees its place in the ring. */
  void finish(SendBatch batch) {
    batch.complete();
    lock.lock();
    try {
      released++;
      // Wake a waiting send() once half the ring is free, not for every batch: it then fills
      // many batches in one go instead of sleeping and waking once per round trip.
      if (callerWaiting && (sealed - released <= ring.length / 2 || closedBecause != null)) {
        callerWaiting = false;
        room.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Fails and frees every batch not yet taken, with {@code why}. */
  void failQueued(Throwable why) {
    SendBatch batch;
    try {
      while ((batch = take(false)) != null) {
        batch.failFrom(0, why);
        finish(batch);
      }
    } catch (InterruptedException e) {
      throw new AssertionError("take(false) does not wait", e);
    }
  }

  /** Waits up to {@code millis} for {@link #close}, which ends the wait at once. */
  void pause(long millis) throws InterruptedException {
    lock.lock();
    try {
      if (closedBecause == null) {
        work.await(millis, TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  boolean isClosed() {
    lock.lock();
    try {
      return closedBecause != null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * From now on every send fails with {@code why} (the first reason given stays), and every waiter
   * is woken: the sender to write what is queued and stop, send() to fail.
   */
  void close(Throwable why) {
    lock.lock();
    try {
      if (closedBecause == null) {
        closedBecause = why;
      }
      work.signalAll();
      room.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
