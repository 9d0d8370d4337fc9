package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** The local broker the tests run against, and a read-back of its state. */
final class Broker {
  static final String HOST = "127.0.0.1";

  static void requireReachable(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(HOST, port), 2_000);
    } catch (IOException e) {
      fail(
          "RabbitMQ is not reachable on "
              + HOST
              + ":"
              + port
              + " ("
              + e.getMessage()
              + "): start it with deploy/local/rabbitmq.sh start");
    }
  }

  /** The management API's view of a queue ({@code type}, {@code durable}, ...). */
  static JsonNode queue(String name) throws Exception {
    return management().get("queues/%2F/" + name);
  }

  static JsonNode exchange(String name) throws Exception {
    return management().get("exchanges/%2F/" + name);
  }

  static boolean queueExists(String name) throws Exception {
    try {
      queue(name);
      return true;
    } catch (IOException e) {
      if (e.getMessage().contains(" 404")) {
        return false;
      }
      throw e;
    }
  }

  private static ManagementApi management() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(RabbitMqConfig.DEFAULT_URI);
    return new ManagementApi(factory);
  }

  private Broker() {}
}
