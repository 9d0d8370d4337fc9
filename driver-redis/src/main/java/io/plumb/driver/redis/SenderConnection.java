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

  private final Supplier<ProducerConnection> connect;
  private final Supplier<HostAndPort> primary; // null: a fixed server
  private final ReplicaWait replicaWait; // null: no WAIT
  private final byte[] waitCommand;

  // The sender's; read by close() and primaryChanged() only to abort it. Null while the sender has
  // none (the last attempt to connect failed).
  private volatile ProducerConnection connection;

  SenderConnection(
      Supplier<ProducerConnection> connect,
      Supplier<HostAndPort> primary,
      ReplicaWait replicaWait) {
    this.connect = connect;
    this.primary = primary;
    this.replicaWait = replicaWait;
    this.waitCommand = replicaWait == null ? null : replicaWait.command();
  }

  /** Connects to the server {@code connect} names now; throws if it cannot be reached. */
  void open() {
    connection = connect.get();
  }

  /** The sender has a connection, and it goes to the primary as Sentinel names it now. */
  boolean connectedToPrimary() {
    ProducerConnection c = connection;
    return c != null && (primary == null || c.address().equals(primary.get()));
  }

  void drop() {
    ProducerConnection c = connection;
    connection = null;
    if (c != null) {
      c.close();
    }
  }

  /**
   * Sentinel named a new primary: a connection to another server is aborted at once, failing the
   * batch in flight there.
   */
  void abortIfNotTo(HostAndPort now) {
    ProducerConnection c = connection;
    if (c != null && !c.address().equals(now)) {
      c.abort();
    }
  }

  /** Aborts the connection, if any: a write or read blocked on it fails at once. */
  void abort() {
    ProducerConnection c = connection;
    if (c != null) {
      c.abort();
    }
  }

  /** Writes the batch; false if the connection broke (its messages are failed). */
  boolean write(SendBatch batch) {
    if (waitCommand != null) {
      batch.commands.write(waitCommand); // the batch is cleared when it completes
    }
    try {
      connection.write(batch.commands.array(), batch.commands.length());
      return true;
    } catch (JedisConnectionException e) {
      batch.failFrom(0, e);
      return false;
    }
  }

  /** Reads one reply per message; false if the connection broke (the rest are failed). */
  boolean readReplies(SendBatch batch) {
    for (int i = 0; i < batch.count(); i++) {
      try {
        connection.reply();
      } catch (JedisDataException e) {
        batch.failed(i, e);
      } catch (RuntimeException e) {
        batch.failFrom(i, e);
        return false;
      }
    }
    return replicaWait == null || readWaitReply(batch);
  }

  /**
   * Reads WAIT's reply: too few replicas, or an error reply (e.g. the server became a replica),
   * fails every message of the batch not failed already; false if the connection broke.
   */
  private boolean readWaitReply(SendBatch batch) {
    try {
      RuntimeException shortfall = replicaWait.check(connection.reply());
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
