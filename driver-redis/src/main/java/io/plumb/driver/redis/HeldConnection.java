package io.plumb.driver.redis;

import java.util.function.Supplier;
import redis.clients.jedis.HostAndPort;

/**
 * The one connection a consumer's reader thread or a producer's sender thread holds, at most one at
 * a time: that thread connects and drops it, and other threads read it only to abort it, when
 * Sentinel names another primary or the consumer or producer closes.
 *
 * @param <C> the kind of connection: a consumer's or a producer's
 */
final class HeldConnection<C extends AbortableConnection> {

  private final Supplier<C> connect;
  private final Supplier<HostAndPort> primary; // null: a fixed server
  private volatile C connection; // null while the thread has none

  /**
   * @param connect opens a new connection, to the server it names at that moment
   * @param primary the primary now, which {@link #onPrimary} compares with; null when the
   *     connection need not follow one
   */
  HeldConnection(Supplier<C> connect, Supplier<HostAndPort> primary) {
    this.connect = connect;
    this.primary = primary;
  }

  /** Opens a new connection and holds it; throws if the server cannot be reached. */
  C connect() {
    C c = connect.get();
    connection = c;
    return c;
  }

  /** The connection held; null while none is. */
  C get() {
    return connection;
  }

  /** The connection held, or a new one if none is (the last was dropped). */
  C connected() {
    C c = connection;
    return c != null ? c : connect();
  }

  /** A connection is held, and it goes to the primary as Sentinel names it now. */
  boolean onPrimary() {
    C c = connection;
    return c != null && (primary == null || c.address().equals(primary.get()));
  }

  /**
   * Sentinel named a new primary: a connection to another server is aborted at once, failing what
   * is in flight there.
   */
  void abortIfNotTo(HostAndPort now) {
    C c = connection;
    if (c != null && !c.address().equals(now)) {
      c.abort();
    }
  }

  /** Aborts the connection, if any: a write or read blocked on it fails at once. */
  void abort() {
    C c = connection;
    if (c != null) {
      c.abort();
    }
  }

  /** Closes the connection held, if any; the next {@link #connected} opens a new one. */
  void drop() {
    C c = connection;
    connection = null;
    if (c != null) {
      c.close();
    }
  }
}
