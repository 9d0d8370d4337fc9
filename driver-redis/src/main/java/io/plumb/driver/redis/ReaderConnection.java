package io.plumb.driver.redis;

import java.util.function.Supplier;
import redis.clients.jedis.HostAndPort;

/**
 * The connection a consumer's reader thread holds, at most one at a time: the reader connects and
 * drops it, and other threads read it only to abort it, when Sentinel names another primary or the
 * consumer closes.
 */
final class ReaderConnection {

  private final Supplier<ConsumerConnection> connect;
  private final Supplier<HostAndPort> primary; // null: a fixed server
  private volatile ConsumerConnection connection; // null while the reader has none

  /**
   * @param connect opens a new connection, to the server it names at that moment
   * @param primary the primary now, which {@link #onPrimary} compares with; null when the
   *     connection need not follow one
   */
  ReaderConnection(Supplier<ConsumerConnection> connect, Supplier<HostAndPort> primary) {
    this.connect = connect;
    this.primary = primary;
  }

  /** Opens a new connection and holds it; throws if the server cannot be reached. */
  ConsumerConnection connect() {
    ConsumerConnection c = connect.get();
    connection = c;
    return c;
  }

  /** The connection held; null while none is. */
  ConsumerConnection get() {
    return connection;
  }

  /** The connection held, or a new one if none is (the last was dropped). */
  ConsumerConnection connected() {
    ConsumerConnection c = connection;
    return c != null ? c : connect();
  }

  /** A connection is held, and it goes to the primary as Sentinel names it now. */
  boolean onPrimary() {
    ConsumerConnection c = connection;
    return c != null && (primary == null || c.address().equals(primary.get()));
  }

  /** Sentinel named a new primary: a connection to another server is aborted at once. */
  void abortIfNotTo(HostAndPort now) {
    ConsumerConnection c = connection;
    if (c != null && !c.address().equals(now)) {
      c.abort();
    }
  }

  /** Closes the connection held, if any; the next {@link #connected} opens a new one. */
  void drop() {
    ConsumerConnection c = connection;
    connection = null;
    if (c != null) {
      c.close();
    }
  }
}
