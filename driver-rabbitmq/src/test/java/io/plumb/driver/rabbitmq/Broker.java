package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

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

  /**
   * Waits (bounded) until the broker lists {@code count} consumers on queues whose names start with
   * {@code queuePrefix}, and returns them by queue name. The management API learns of new consumers
   * asynchronously, hence the wait.
   */
  static Map<String, JsonNode> awaitConsumers(String queuePrefix, int count, long timeoutSeconds)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    Map<String, JsonNode> byQueue = new TreeMap<>();
    while (System.nanoTime() < deadline) {
      byQueue.clear();
      for (JsonNode c : management().get("consumers/%2F")) {
        String queue = c.path("queue").path("name").asText();
        if (queue.startsWith(queuePrefix)) {
          byQueue.put(queue, c);
        }
      }
      if (byQueue.size() >= count) {
        return byQueue;
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    fail("the broker lists " + byQueue.size() + " consumers on " + queuePrefix + "*, not " + count);
    return byQueue;
  }

  /**
   * Waits (bounded) until the broker lists {@code count} channels on the connection the client
   * named {@code connectionName}, and returns them. A channel shows up in the management API first
   * with its name only and a few seconds later with its details (its mode, {@code confirm}, among
   * them), hence the wait for channels that have them.
   */
  static List<JsonNode> awaitChannels(String connectionName, int count, long timeoutSeconds)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    List<JsonNode> channels = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      channels.clear();
      for (JsonNode connection : management().get("connections")) {
        if (connectionName.equals(connection.path("user_provided_name").asText())) {
          String name = URLEncoder.encode(connection.path("name").asText(), StandardCharsets.UTF_8);
          for (JsonNode channel :
              management().get("connections/" + name.replace("+", "%20") + "/channels")) {
            if (channel.has("confirm")) {
              channels.add(channel);
            }
          }
        }
      }
      if (channels.size() >= count) {
        return channels;
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    fail(
        "the broker lists "
            + channels.size()
            + " channels on "
            + connectionName
            + ", not "
            + count);
    return channels;
  }

  /**
   * Waits (bounded) until the broker lists at least {@code count} stream-protocol connections whose
   * client-provided name starts with {@code namePrefix}, and returns their names.
   */
  static Set<String> awaitStreamConnections(String namePrefix, int count, long timeoutSeconds)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    Set<String> names = new TreeSet<>();
    while (System.nanoTime() < deadline) {
      names.clear();
      for (JsonNode connection : management().get("connections")) {
        String name = connection.path("user_provided_name").asText();
        if ("stream".equals(connection.path("protocol").asText()) && name.startsWith(namePrefix)) {
          names.add(name);
        }
      }
      if (names.size() >= count) {
        return names;
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    fail("the broker lists " + names + " stream connections " + namePrefix + "*, not " + count);
    return names;
  }

  private static ManagementApi management() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(RabbitMqConfig.DEFAULT_URI);
    return new ManagementApi(factory);
  }

  private Broker() {}
}
