package io.plumb.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Whether a broker listens where a test expects it, checked before the test's first step: a test
 * that needs a real broker then fails in one line naming the address and how to start one, not with
 * a client's timeout.
 */
public final class BrokerPort {

  private BrokerPort() {}

  /**
   * Something accepts a connection on {@code 127.0.0.1:port} within 2 s.
   *
   * @param broker what should listen there, for the message ("NATS server")
   * @param startCommand what starts it ("deploy/local/nats.sh start")
   * @throws AssertionError otherwise
   */
  public static void assertListening(String broker, int port, String startCommand) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
    } catch (IOException e) {
      throw new AssertionError(
          "no "
              + broker
              + " on 127.0.0.1:"
              + port
              + " ("
              + e.getMessage()
              + "): start it with "
              + startCommand);
    }
  }

  /**
   * Something accepts a connection on each of {@code ports}, as {@link #assertListening(String,
   * int, String)} checks one: for a broker a test reaches on more than one port (its clients' port
   * and its management or admin port), checked in the order given.
   *
   * @throws AssertionError naming the first port where nothing listens
   */
  public static void assertListening(String broker, String startCommand, int... ports) {
    for (int port : ports) {
      assertListening(broker, port, startCommand);
    }
  }
}
