package io.plumb.driver.redis;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A consumer's own connection: a {@link Jedis} whose socket another thread can {@link #abort}, so a
 * consumer blocked on a server that is no longer the primary (or no longer answers) moves on at
 * once rather than when its socket timeout ends.
 */
final class ConsumerConnection implements AutoCloseable {

  private final Jedis jedis;
  private final SocketKeeper sockets;

  private ConsumerConnection(Jedis jedis, SocketKeeper sockets) {
    this.jedis = jedis;
    this.sockets = sockets;
  }

  /** Connects (with the client config's credentials and name); throws if the server is away. */
  static ConsumerConnection open(HostAndPort address, JedisClientConfig config) {
    SocketKeeper sockets = new SocketKeeper(address, config);
    Jedis jedis = new Jedis(sockets, config);
    try {
      jedis.getConnection().connect();
      return new ConsumerConnection(jedis, sockets);
    } catch (RuntimeException e) {
      jedis.close();
      throw e instanceof JedisConnectionException j ? j : new JedisConnectionException(e);
    }
  }

  Jedis jedis() {
    return jedis;
  }

  HostAndPort address() {
    return sockets.address();
  }

  /** Closes the socket from another thread: a blocked read fails at once. */
  void abort() {
    jedis.getConnection().setBroken();
    sockets.abort();
  }

  /**
   * Never throws: closing flushes what Jedis still holds, and on a connection the server reset (a
   * server killed or restarted while this one sat idle) that fails, after which the socket is
   * closed all the same. Thrown from a consumer's or producer's error handling, it would end its
   * thread.
   */
  @Override
  public void close() {
    try {
      jedis.close();
    } catch (JedisConnectionException e) {
      // The socket is closed (Jedis closes it quietly after the failed flush): nothing is left.
    }
  }
}
