package io.plumb.driver.redis;

import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A consumer's own connection: a {@link Jedis} whose socket another thread can {@link #abort}, so a
 * consumer blocked on a server that is no longer the primary (or no longer answers) moves on at
 * once rather than when its socket timeout ends.
 */
record ConsumerConnection(Jedis jedis, SocketKeeper sockets) implements AbortableConnection {

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

  @Override
  public Connection connection() {
    return jedis.getConnection();
  }
}
