package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A producer with its own connection and sender thread, pipelining like {@code redis-benchmark -P
 * <depth>}: the sender writes a batch of up to {@code depth} commands in one write, reads all of
 * their replies, and only then writes the next batch, so at most {@code depth} commands are in
 * flight.
 *
 * <p>send() encodes the message's command (XADD or PUBLISH) straight into the batch being filled,
 * in a ring of reused batches: the payload (and the header, when it travels as an entry field) is
 * copied once, into the bytes that go on the wire, and nothing is allocated per message. A batch is
 * handed over when it holds {@code depth} commands, or earlier when the sender is idle (so a slow,
 * fixed rate is not held back waiting for a full batch). send() waits only when every batch of the
 * ring is taken: {@code maxPendingSends} messages queued behind the two batches the sender holds
 * (the one in flight and the one it is completing). That wait is the producer's backpressure, and
 * the framework measures it.
 *
 * <p>Once a batch's replies are read, the sender first writes the next batch, if one is ready, and
 * then completes the previous batch's messages while the server works on the next: the server is
 * not left idle while completions are recorded, and those messages are reported complete a write
 * later than their replies arrived (which makes Plumb's figure pessimistic, never optimistic).
 *
 * <p>Every message is completed exactly once: from its own reply (an error reply fails just that
 * message), or with the connection error if the connection broke before its reply (the sender then
 * reconnects), or with "producer closed" for sends after close.
 *
 * <p>Following the primary: before each batch the sender checks that its connection goes to the
 * server {@code primary} names now (Sentinel's current primary) and otherwise connects there first;
 * {@link #primaryChanged} also aborts a connection to a former primary at once, which fails the
 * batch in flight (its replies would come from a server that is no longer the primary, or never).
 * While no server can be reached, each connection attempt that fails also fails every batch queued
 * behind it, and the sender tries again {@link #RECONNECT_PAUSE_MILLIS} later: every send completes
 * within a bounded time, and send() never waits long for room.
 *
 * <p>With a {@link ReplicaWait}, each batch is followed by {@code WAIT replicas timeout} in the
 * same write, and its messages succeed only if WAIT reports enough replicas: a batch's replication
 * is confirmed before the next batch is written, so the window stays one batch.
 */
final class PipelinedProducer implements BenchmarkProducer {

  /** Initial room per command in a batch; batches grow to the largest message seen. */
  private static final int INITIAL_BYTES_PER_COMMAND = 1_200;

  /** Pause between failed connection attempts. */
  static final long RECONNECT_PAUSE_MILLIS = 100;

  private final SenderConnection connection;
  private final long maxBlockNanos; // 0: send() waits for room as long as it takes
  private final CommandEncoder encoder;
  private final int partitions;
  private int roundRobin; // the calling thread's
  private final int depth;
  private final SendBatch[] ring;
  private final Thread sender;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private final Condition work = lock.newCondition();
  // Batch numbers, guarded by lock: batch b lives in ring[b % ring.length]. Batches below
  // `released` are free; released..shipped-1 are the sender's; shipped..sealed-1 are full and
  // waiting; `sealed` is the one send() fills.
  private long sealed;
  private long shipped;
  private long released;
  private boolean senderWaiting;
  private boolean callerWaiting;
  // The ring stayed full for maxBlockNanos: sends fail at once until there is room again.
  private boolean stalled;
  private Throwable closedBecause;

  PipelinedProducer(
      Supplier<ProducerConnection> connect,
      CommandEncoder encoder,
      String topic,
      int partitions,
      int depth,
      int maxPendingSends,
      ReplicaWait replicaWait) {
    this(connect, null, encoder, topic, partitions, depth, maxPendingSends, 0, replicaWait);
  }

  /**
   * A producer that follows the primary: {@code connect} opens a connection to the server {@code
   * primary} names now.
   */
  PipelinedProducer(
      Supplier<ProducerConnection> connect,
      Supplier<HostAndPort> primary,
      CommandEncoder encoder,
      String topic,
      int partitions,
      int depth,
      int maxPendingSends,
      long maxBlockMillis,
      ReplicaWait replicaWait) {
    this.connection = new SenderConnection(connect, primary, replicaWait);
    this.maxBlockNanos = TimeUnit.MILLISECONDS.toNanos(maxBlockMillis);
    this.encoder = encoder;
    this.partitions = partitions;
    this.depth = depth;
    int queued = (maxPendingSends + depth - 1) / depth;
    this.ring = new SendBatch[queued + 2];
    for (int i = 0; i < ring.length; i++) {
      ring[i] = new SendBatch(depth, INITIAL_BYTES_PER_COMMAND);
    }
    // Connect before returning so a bad address fails createProducer, not the first send.
    connection.open();
    this.sender = new Thread(this::run, "plumb-redis-sender-" + topic);
    sender.setDaemon(true);
    sender.start();
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    enqueue(key, null, payload, token, listener);
  }

  /**
   * The header travels as the entry field {@value StreamHeader#NAME} beside the payload (streams
   * mode only: the framework calls this only when the driver reports the header fact, which Pub/Sub
   * mode does not). Both arrays are copied into the batch's bytes before this returns.
   */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    if (!encoder.carriesHeader()) {
      throw new UnsupportedOperationException(CommandEncoder.PUBLISH_HAS_NO_FIELDS);
    }
    enqueue(key, header, payload, token, listener);
  }

  /** Encodes the message into the batch being filled; {@code header} null for a plain send. */
  private void enqueue(
      String key, byte[] header, byte[] payload, long token, SendListener listener) {
    int partition = RedisKeys.choose(key, partitions, roundRobin++);
    Throwable failure;
    lock.lock();
    try {
      failure = awaitRoom();
      if (failure == null) {
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
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = e;
    } finally {
      lock.unlock();
    }
    if (failure != null) {
      listener.sendCompleted(token, partition, failure);
    }
  }

  /**
   * Waits for room in the ring, at most {@code maxBlockNanos} (if set); then, and for every later
   * send until room appears, fails the send at once, so a server that stopped answering does not
   * hold the caller. Called with the lock held.
   *
   * @return why the send fails, or null if there is room
   */
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
   * {@code wait} is false or the producer is closed and everything was taken.
   */
  private SendBatch take(boolean wait) throws InterruptedException {
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
  private void finish(SendBatch batch) {
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

  private void run() {
    SendBatch previous = null; // replies read, completions not yet reported
    try {
      while (true) {
        SendBatch next = take(previous == null);
        // `previous` is cleared before it is finished, so a failure while finishing it can never
        // make shutDown complete its messages a second time.
        SendBatch done = previous;
        previous = null;
        if (next == null) {
          if (done == null) {
            break; // closed, and everything was sent
          }
          finish(done);
          continue;
        }
        if (!connection.connectedToPrimary()) {
          if (done != null) {
            finish(done);
            done = null;
          }
          if (!connect(next)) {
            continue; // `next` and everything queued failed; try again with the next batch
          }
        }
        boolean written = connection.write(next);
        if (done != null) {
          finish(done);
        }
        if (written && connection.readReplies(next)) {
          previous = next;
        } else {
          finish(next);
          connection.drop();
        }
      }
    } catch (InterruptedException e) {
      shutDown(previous, e);
    } catch (RuntimeException e) {
      // A bug rather than the server: fail what the producer holds and all later sends.
      shutDown(previous, e);
    } finally {
      connection.drop();
    }
  }

  /**
   * Connects to the primary before {@code batch} is written. If that fails, fails {@code batch} and
   * every batch queued behind it (so send() does not wait for room while no server answers), then
   * pauses before the next attempt; once the producer is closed, nothing more is tried.
   *
   * @return true if connected
   */
  private boolean connect(SendBatch batch) throws InterruptedException {
    connection.drop();
    RuntimeException failure;
    try {
      if (!isClosed()) {
        connection.open();
        return true;
      }
      failure = new JedisConnectionException("connection lost while closing");
    } catch (RuntimeException e) {
      failure = e;
    }
    batch.failFrom(0, failure);
    finish(batch);
    SendBatch queued;
    while ((queued = take(false)) != null) {
      queued.failFrom(0, failure);
      finish(queued);
    }
    lock.lock();
    try {
      if (closedBecause == null) {
        // Woken early by close(), which then fails whatever is queued the same way.
        work.await(RECONNECT_PAUSE_MILLIS, TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
    return false;
  }

  private boolean isClosed() {
    lock.lock();
    try {
      return closedBecause != null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sentinel named a new primary: a connection to another server is aborted at once, failing the
   * batch in flight there, and the sender connects to the new one before its next batch.
   */
  void primaryChanged(HostAndPort now) {
    connection.abortIfNotTo(now);
  }

  /** Fails everything not yet completed, and every later send, with {@code why}. */
  private void shutDown(SendBatch previous, Throwable why) {
    if (previous != null) {
      finish(previous);
    }
    lock.lock();
    try {
      if (closedBecause == null) {
        closedBecause = why;
      }
    } finally {
      lock.unlock();
    }
    SendBatch batch;
    try {
      while ((batch = take(false)) != null) {
        batch.failFrom(0, why);
        finish(batch);
      }
    } catch (InterruptedException e) {
      throw new AssertionError("take(false) does not wait", e);
    }
    lock.lock();
    try {
      room.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() throws InterruptedException {
    lock.lock();
    try {
      if (closedBecause == null) {
        closedBecause = new IllegalStateException("producer closed");
      }
      work.signalAll();
      room.signalAll();
    } finally {
      lock.unlock();
    }
    // The sender writes what is queued, completes it and stops. If the server stopped answering,
    // closing the connection under it fails the batch in flight and the rest.
    sender.join(TimeUnit.SECONDS.toMillis(30));
    if (sender.isAlive()) {
      connection.abort();
      sender.join();
    }
  }
}
