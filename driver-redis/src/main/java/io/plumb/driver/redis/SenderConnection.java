package io.plumb.driver.redis;

import java.util.function.Supplier;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The connection of a {@link PipelinedProducer}'s sender, and the batches it carries: it writes a
 * batch (followed by {@code WAIT} with a {@link ReplicaWait}) and reads one reply per message,
 * failing the messages whose reply is an error or never comes. It knows which server is the primary
 * now, so the sender can connect there before its next batch, and aborts a connection to a former
 * primary at once.
 *
 * <p>Used by the sender thread only, except {@link #abortIfNotTo} and {@link #abort}, which other
 * threads call to abort it.
 */
final class SenderConnection {

  private final HeldConnection<ProducerConnection> connection;
  private final ReplicaWait replicaWait; // null: no WAIT
  private final byte[] waitCommand;

  /**
   * @param primary the primary now; null for a fixed server
   * @param replicaWait null for no WAIT
   */
  SenderConnection(
      Supplier<ProducerConnection> connect,
      Supplier<HostAndPort> primary,
      ReplicaWait replicaWait) {
    this.connection = new HeldConnection<>(connect, primary);
    this.replicaWait = replicaWait;
    this.waitCommand = replicaWait == null ? null : replicaWait.command();
  }

  /** Connects to the server {@code connect} names now; throws if it cannot be reached. */
  void open() {
    connection.connect();
  }

  /** The sender has a connection, and it goes to the primary as Sentinel names it now. */
  boolean connectedToPrimary() {
    return connection.onPrimary();
  }

  void drop() {
    connection.drop();
  }

  /**
   * Sentinel named a new primary: a connection to another server is aborted at once, failing the
   * batch in flight there.
   */
  void abortIfNotTo(HostAndPort now) {
    connection.abortIfNotTo(now);
  }

  /** Aborts the connection, if any: a write or read blocked on it fails at once. */
  void abort() {
    connection.abort();
  }

  /** Writes the batch; false if the connection broke (its messages are failed). */
  boolean write(SendBatch batch) {
    if (waitCommand != null) {
      batch.commands.write(waitCommand); // the batch is cleared when it completes
    }
    try {
      connection.get().write(batch.commands.array(), batch.commands.length());
      return true;
    } catch (JedisConnectionException e) {
      batch.failFrom(0, e);
      return false;
    }
  }

  /**
   * Reads one reply per message; false if the connection broke (the rest are failed, and with a
   * {@link ReplicaWait} the whole batch).
   */
  boolean readReplies(SendBatch batch) {
    ProducerConnection replies = connection.get(); // the sender's own: only it drops or replaces it
    for (int i = 0; i < batch.count(); i++) {
      try {
        replies.reply();
      } catch (JedisDataException e) {
        batch.failed(i, e);
      } catch (RuntimeException e) {
        if (replicaWait != null) {
          // The messages answered before the break are on the primary, but WAIT never confirmed
          // their replication: a failover may lose them, so they are not acknowledged either.
          batch.failUnfailed(e);
        } else {
          batch.failFrom(i, e);
        }
        return false;
      }
    }
    return replicaWait == null || readWaitReply(replies, batch);
  }

  /**
   * Reads WAIT's reply: too few replicas, or an error reply (e.g. the server became a replica),
   * fails every message of the batch not failed already; false if the connection broke.
   */
  private boolean readWaitReply(ProducerConnection replies, SendBatch batch) {
    try {
      RuntimeException shortfall = replicaWait.check(replies.reply());
      if (shortfall != null) {
        batch.failUnfailed(shortfall);
      }
      return true;
    } catch (JedisDataException e) {
      batch.failUnfailed(e);
      return true;
    } catch (RuntimeException e) {
      batch.failUnfailed(e);
      return false;
    }
  }
}
