package io.plumb.driver.redis;

import java.io.IOException;
import java.io.OutputStream;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A producer's connection: Jedis connects, authenticates and names it and parses the replies, while
 * a batch of commands already encoded as RESP is written to the socket in one write. Jedis's own
 * encoder would wrap every argument of every command in objects and write a 1 KB message in several
 * pieces through its 8 KB buffer; writing the batch straight from the producer's buffer is what
 * keeps the producer as cheap per message as redis-benchmark.
 */
record ProducerConnection(Connection connection, SocketKeeper sockets, OutputStream out)
    implements AbortableConnection {

  /** Connects (with the client config's credentials and name); throws if the server is away. */
  static ProducerConnection open(HostAndPort address, JedisClientConfig config) {
    SocketKeeper sockets = new SocketKeeper(address, config);
    Connection connection = new Connection(sockets, config);
    try {
      // Connection connects in its constructor; make sure, then take the socket it uses.
      connection.connect();
      return new ProducerConnection(connection, sockets, sockets.socket().getOutputStream());
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e instanceof JedisConnectionException j ? j : new JedisConnectionException(e);
    }
  }

  /** Writes {@code length} bytes of encoded commands; Jedis's own buffer is empty at this point. */
  void write(byte[] commands, int length) {
    try {
      out.write(commands, 0, length);
    } catch (IOException e) {
      connection.setBroken();
      throw new JedisConnectionException(e);
    }
  }

  /**
   * The next reply. An error reply throws {@link redis.clients.jedis.exceptions.JedisDataException}
   * (that command failed, the connection is fine); a broken connection throws {@link
   * JedisConnectionException}.
   */
  Object reply() {
    return connection.getUnflushedObject();
  }
}
