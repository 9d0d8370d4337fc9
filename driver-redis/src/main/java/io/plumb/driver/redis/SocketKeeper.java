package io.plumb.driver.redis;

import java.io.IOException;
import java.net.Socket;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;

/**
 * Creates a connection's sockets with Jedis's factory and remembers the last one, so that another
 * thread can {@link #abort} it: closing the socket ends a read or write blocked on a server that is
 * frozen, cut off or no longer the primary at once, where Jedis would wait for its socket timeout.
 */
final class SocketKeeper implements JedisSocketFactory {

  private final JedisSocketFactory factory;
  private final HostAndPort address;
  private volatile Socket socket;

  SocketKeeper(HostAndPort address, JedisClientConfig config) {
    this.factory = new DefaultJedisSocketFactory(address, config);
    this.address = address;
  }

  @Override
  public Socket createSocket() {
    socket = factory.createSocket();
    return socket;
  }

  Socket socket() {
    return socket;
  }

  /** The server this connection goes to. */
  HostAndPort address() {
    return address;
  }

  /** Closes the socket without flushing or waiting: blocked reads and writes fail at once. */
  void abort() {
    Socket s = socket;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
