package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.SendListener;
import java.util.concurrent.TimeUnit;
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
 * in a {@link BatchRing} of reused batches: the payload (and the header, when it travels as an
 * entry field) is copied once, into the bytes that go on the wire, and nothing is allocated per
 * message. A batch is handed over when it holds {@code depth} commands, or earlier when the sender
 * is idle (so a slow, fixed rate is not held back waiting for a full batch). send() waits only when
 * every batch of the ring is taken: {@code maxPendingSends} messages queued behind the two batches
 * the sender holds (the one in flight and the one it is completing). That wait is the producer's
 * backpressure, and the framework measures it.
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
final class PipelinedProducer extends PrimaryFollowingProducer {

  /** Pause between failed connection attempts. */
  static final long RECONNECT_PAUSE_MILLIS = 100;

  private final SenderConnection connection;
  private final CommandEncoder encoder;
  private final int partitions;
  private int roundRobin; // the calling thread's
  private final BatchRing batches;
  private final Thread sender;

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
    super(encoder.carriesHeader());
    this.connection = new SenderConnection(connect, primary, replicaWait);
    this.partitions = partitions;
    this.batches =
        new BatchRing(
            encoder, depth, maxPendingSends, TimeUnit.MILLISECONDS.toNanos(maxBlockMillis));
    this.encoder = encoder;
    // Connect before returning so a bad address fails createProducer, not the first send.
    connection.open();
    this.sender = DaemonThreads.start("plumb-redis-sender-" + topic, this::run);
  }

  /**
   * Encodes the message into the batch being filled: the header as the entry field {@value
   * StreamHeader#NAME}; both arrays are copied into the batch's bytes before this returns.
   */
  @Override
  void enqueue(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    int partition = BenchmarkProducer.partitionFor(key, partitions, roundRobin++);
    Throwable failure = batches.add(partition, key, header, payload, token, listener);
    if (failure != null) {
      listener.sendCompleted(token, partition, failure);
    }
  }

  private void run() {
    SendBatch previous = null; // replies read, completions not yet reported
    try {
      while (true) {
        SendBatch next = batches.take(previous == null);
        // `previous` is cleared before it is finished, so a failure while finishing it can never
        // make shutDown complete its messages a second time.
        SendBatch done = previous;
        previous = null;
        if (next == null) {
          if (done == null) {
            break; // closed, and everything was sent
          }
          batches.finish(done);
          continue;
        }
        if (!connection.connectedToPrimary()) {
          if (done != null) {
            batches.finish(done);
            done = null;
          }
          if (!connect(next)) {
            continue; // `next` and everything queued failed; try again with the next batch
          }
        }
        boolean written = connection.write(next);
        if (done != null) {
          batches.finish(done);
        }
        if (written && connection.readReplies(next)) {
          previous = next;
        } else {
          batches.finish(next);
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
      if (!batches.isClosed()) {
        connection.open();
        return true;
      }
      failure = new JedisConnectionException("connection lost while closing");
    } catch (RuntimeException e) {
      failure = e;
    }
    batch.failFrom(0, failure);
    batches.finish(batch);
    batches.failQueued(failure);
    // Woken early by close(), which then fails whatever is queued the same way.
    batches.pause(RECONNECT_PAUSE_MILLIS);
    return false;
  }

  /**
   * Sentinel named a new primary: a connection to another server is aborted at once, failing the
   * batch in flight there, and the sender connects to the new one before its next batch.
   */
  @Override
  void primaryChanged(HostAndPort now) {
    connection.abortIfNotTo(now);
  }

  /** Fails everything not yet completed, and every later send, with {@code why}. */
  private void shutDown(SendBatch previous, Throwable why) {
    if (previous != null) {
      batches.finish(previous);
    }
    batches.close(why);
    batches.failQueued(why);
  }

  @Override
  void stopSender() throws InterruptedException {
    batches.close(new IllegalStateException("producer closed"));
    // The sender writes what is queued, completes it and stops. If the server stopped answering,
    // closing the connection under it fails the batch in flight and the rest.
    sender.join(TimeUnit.SECONDS.toMillis(30));
    if (sender.isAlive()) {
      connection.abort();
      sender.join();
    }
  }
}
