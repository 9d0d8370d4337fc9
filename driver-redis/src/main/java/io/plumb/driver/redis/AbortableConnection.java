package io.plumb.driver.redis;

import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A consumer's or producer's own Jedis connection, on a socket its {@link SocketKeeper} created:
 * other threads can {@link #abort} it, so that a client blocked on a server that is no longer the
 * primary (or no longer answers) moves on at once rather than when its socket timeout ends.
 */
interface AbortableConnection extends AutoCloseable {

  /** Jedis's connection. */
  Connection connection();

  /** What created the connection's socket, and can close it. */
  SocketKeeper sockets();

  /** The server this connection goes to. */
  default HostAndPort address() {
    return sockets().address();
  }

  /**
   * Closes the socket from another thread, without flushing: a read or write blocked on a server
   * that stopped answering fails at once.
   */
  default void abort() {
    connection().setBroken();
    sockets().abort();
  }

  /**
   * Never throws: closing flushes what Jedis still holds, and on a connection the server reset (a
   * server killed or restarted while this one sat idle) that fails, after which the socket is
   * closed all the same. Thrown from a consumer's or producer's error handling, it would end its
   * thread.
   */
  @Override
  default void close() {
    try {
      connection().close();
    } catch (JedisConnectionException e) {
      // The socket is closed (Jedis closes it quietly after the failed flush): nothing is left.
    }
  }
}
