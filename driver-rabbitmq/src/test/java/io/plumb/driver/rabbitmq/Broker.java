package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.ConnectionFactory;
import io.plumb.testkit.BrokerPort;
import io.plumb.testkit.ConfigRefusal;
import io.plumb.testkit.DriverFiles;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/** The local broker the tests run against, and a read-back of its state. */
final class Broker {
  static final String HOST = "127.0.0.1";

  static void requireReachable(int... ports) {
    BrokerPort.assertListening("RabbitMQ", "deploy/local/rabbitmq.sh start", ports);
  }

  /**
   * The AMQP driver, initialized from {@code file} with its {@code --driver-set} {@code overrides};
   * the caller closes it. The shipped files point at this broker.
   */
  static RabbitMqBenchmarkDriver open(String file, Map<String, String> overrides) throws Exception {
    return DriverFiles.open(RabbitMqBenchmarkDriver::new, Path.of(file), overrides);
  }

  /** The stream-protocol driver, as {@link #open} opens the AMQP one. */
  static RabbitMqStreamBenchmarkDriver openStream(String file, Map<String, String> overrides)
      throws Exception {
    return DriverFiles.open(RabbitMqStreamBenchmarkDriver::new, Path.of(file), overrides);
  }

  /**
   * The one line an AMQP driver initialized from {@code file} with {@code overrides} is refused
   * with.
   */
  static String refusal(String file, Map<String, String> overrides) throws Exception {
    return ConfigRefusal.messageOf(RabbitMqBenchmarkDriver::new, Path.of(file), overrides);
  }

  /** The management API's view of a queue ({@code type}, {@code durable}, ...). */
  static JsonNode queue(String name) throws Exception {
    return management().get("queues/%2F/" + name);
  }

  static JsonNode exchange(String name) throws Exception {
    return management().get("exchanges/%2F/" + name);
  }

  /** The names of every queue and stream in the default virtual host. */
  static Set<String> queueNames() throws Exception {
    return names(management().get("queues/%2F?columns=name"));
  }

  /** The names of every policy in the default virtual host. */
  static Set<String> policyNames() throws Exception {
    return names(management().get("policies/%2F"));
  }

  /** The node the management API names as a queue's leader (a classic queue's master). */
  static String leader(String queue) throws Exception {
    return management().leader(queue, java.time.Duration.ofSeconds(5)).orElse("none");
  }

  /** The names of every exchange in the default virtual host. */
  static Set<String> exchangeNames() throws Exception {
    return names(management().get("exchanges/%2F?columns=name"));
  }

  private static Set<String> names(JsonNode list) {
    Set<String> names = new TreeSet<>();
    list.forEach(item -> names.add(item.path("name").asText()));
    return names;
  }

  /** The broker's {@code /api/overview}. */
  static JsonNode overview() throws Exception {
    return management().get("overview");
  }

  /** The cluster's running nodes, as the management API on node 1 lists them. */
  static List<String> runningNodes() throws Exception {
    return management().runningNodes();
  }

  /** The nodes the management API reports holding a queue or stream (waiting for a stream's). */
  static Set<String> members(String queue) throws Exception {
    return members(queue, 1);
  }

  /** The same, waiting (bounded) for {@code expected} of them: a mirrored queue's mirrors start. */
  static Set<String> members(String queue, int expected) throws Exception {
    return new TreeSet<>(management().awaitCopies(queue, expected).members());
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
   * {@code queuePrefix}, each with its channel's details, and returns them by queue name. The
   * details come from the channel's statistics, which the broker emits every few seconds: a
   * consumer listed before them names no channel.
   */
  static Map<String, JsonNode> awaitConsumers(String queuePrefix, int count, long timeoutSeconds)
      throws Exception {
    return awaitListed(
        "consumers on " + queuePrefix + "*",
        count,
        timeoutSeconds,
        Map::size,
        () -> {
          Map<String, JsonNode> byQueue = new TreeMap<>();
          for (JsonNode c : management().get("consumers/%2F")) {
            String queue = c.path("queue").path("name").asText();
            if (queue.startsWith(queuePrefix)
                && !c.path("channel_details").path("name").asText().isEmpty()) {
              byQueue.put(queue, c);
            }
          }
          return byQueue;
        });
  }

  /**
   * Waits (bounded) until the broker lists {@code count} channels on the connection the client
   * named {@code connectionName}, and returns them. A channel shows up in the management API first
   * with its name only and a few seconds later with its details (its mode, {@code confirm}, among
   * them), hence the wait for channels that have them and pass {@code ready}: details emitted just
   * after the channel opened can still show its mode before the client changed it.
   */
  static List<JsonNode> awaitChannels(
      String connectionName, int count, long timeoutSeconds, Predicate<JsonNode> ready)
      throws Exception {
    return awaitListed(
        "channels on " + connectionName,
        count,
        timeoutSeconds,
        List::size,
        () -> {
          List<JsonNode> channels = new ArrayList<>();
          for (String connection : connectionsNamed(connectionName)) {
            for (JsonNode channel : management().get(connectionPath(connection) + "/channels")) {
              if (channel.has("confirm") && ready.test(channel)) {
                channels.add(channel);
              }
            }
          }
          return channels;
        });
  }

  /**
   * Closes, from the broker's side, every connection the client named {@code connectionName}, as a
   * lost connection the client's automatic recovery reopens; waits (bounded) for the management API
   * to list one (it learns of new connections a little late) and returns how many it closed.
   */
  static int closeConnections(String connectionName, long timeoutSeconds) throws Exception {
    List<String> names =
        awaitListed(
            "connections " + connectionName,
            1,
            timeoutSeconds,
            List::size,
            () -> connectionsNamed(connectionName));
    for (String name : names) {
      management().delete(connectionPath(name));
    }
    return names.size();
  }

  /** The broker's names of the connections the client named {@code connectionName}. */
  private static List<String> connectionsNamed(String connectionName) throws Exception {
    List<String> names = new ArrayList<>();
    for (JsonNode connection : management().get("connections")) {
      if (connectionName.equals(connection.path("user_provided_name").asText())) {
        names.add(connection.path("name").asText());
      }
    }
    return names;
  }

  /**
   * A connection's path in the management API: its broker name ("127.0.0.1:50000 -> ...") encoded
   * as a path segment, where a space is %20, not the form encoding's +.
   */
  private static String connectionPath(String name) {
    return "connections/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * Waits (bounded) until the broker lists at least {@code count} stream-protocol connections whose
   * client-provided name starts with {@code namePrefix}, and returns their names.
   */
  static Set<String> awaitStreamConnections(String namePrefix, int count, long timeoutSeconds)
      throws Exception {
    return awaitListed(
        "stream connections " + namePrefix + "*",
        count,
        timeoutSeconds,
        Set::size,
        () -> {
          Set<String> names = new TreeSet<>();
          for (JsonNode connection : management().get("connections")) {
            String name = connection.path("user_provided_name").asText();
            if ("stream".equals(connection.path("protocol").asText())
                && name.startsWith(namePrefix)) {
              names.add(name);
            }
          }
          return names;
        });
  }

  /**
   * Reads what the broker lists every 200 ms until it holds at least {@code count} entries, and
   * fails the test after {@code timeoutSeconds}: the management API learns of new consumers,
   * channels and connections asynchronously.
   */
  private static <T> T awaitListed(
      String what, int count, long timeoutSeconds, ToIntFunction<T> size, Callable<T> read)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    T listed = read.call();
    while (size.applyAsInt(listed) < count && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(200);
      listed = read.call();
    }
    if (size.applyAsInt(listed) < count) {
      fail("the broker lists " + size.applyAsInt(listed) + " " + what + ", not " + count);
    }
    return listed;
  }

  private static ManagementApi management() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(RabbitMqConfig.DEFAULT_URI);
    return new ManagementApi(factory);
  }

  private Broker() {}
}
