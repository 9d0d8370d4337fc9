package io.plumb.driver.rabbitmq;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The stream-protocol driver's YAML. Streams are always durable (replicated logs written to disk);
 * what varies is how the client batches and how far it runs ahead of confirmations.
 *
 * @param host stream protocol host (the broker advertises its own for each stream)
 * @param port stream protocol port
 * @param username user
 * @param password password
 * @param virtualHost virtual host
 * @param batchSize messages per publish frame at most
 * @param batchPublishingDelayMs how long a partly filled batch may wait (when dynamicBatch is off)
 * @param dynamicBatch send a batch as soon as the producer's queue runs dry instead of waiting
 * @param maxUnconfirmedMessages per producer; send blocks beyond it (the client's backpressure)
 * @param subEntrySize messages packed into one sub-entry (1: none)
 * @param initialCredits chunks the broker may push to a consumer before it asks for more
 * @param maxLengthBytes retention per partition stream (0: unlimited), so long runs don't fill the
 *     disk
 * @param producersByConnection client producers (one per partition stream) sharing a connection
 * @param consumersByConnection partition readers sharing a connection: the broker serves each
 *     connection with one process, so sharing one across 16 partitions makes that process the limit
 *     (1, as RabbitMQ's StreamPerfTest has by default)
 * @param replicas nodes holding a copy of each partition stream (the leader and its replicas: the
 *     stream argument {@code x-initial-cluster-size}); null leaves the broker's default (every
 *     node)
 * @param locatorPorts stream ports of every node, on {@code host}, for the client's locator
 *     connection (where it asks which node leads each stream): it uses the next when one fails, so
 *     producers and consumers find a new leader after a node is lost; by default {@code port} only
 * @param queueLeaderLocator where the broker puts each partition stream's leader: {@code balanced}
 *     (the default: spread over the nodes) or {@code client-local} (the node the creating
 *     connection reached, the broker's default)
 * @param requestedMaxFrameSize the largest frame the client asks for, in bytes (the client's
 *     default, 1048576); the connection uses the smaller of this and the broker's {@code
 *     stream.frame_max}, and a message must fit in one publish frame ({@link StreamFrameLimit})
 */
public record RabbitMqStreamConfig(
    String host,
    Integer port,
    String username,
    String password,
    String virtualHost,
    Integer batchSize,
    Integer batchPublishingDelayMs,
    Boolean dynamicBatch,
    Integer maxUnconfirmedMessages,
    Integer subEntrySize,
    Integer initialCredits,
    Long maxLengthBytes,
    Integer producersByConnection,
    Integer consumersByConnection,
    Integer replicas,
    List<Integer> locatorPorts,
    QueueLeaderLocator queueLeaderLocator,
    Integer requestedMaxFrameSize) {

  public RabbitMqStreamConfig {
    host = host == null ? "127.0.0.1" : host;
    port = port == null ? 5552 : port;
    username = username == null ? "guest" : username;
    password = password == null ? "guest" : password;
    virtualHost = virtualHost == null ? "/" : virtualHost;
    batchSize = batchSize == null ? 100 : batchSize;
    batchPublishingDelayMs = batchPublishingDelayMs == null ? 100 : batchPublishingDelayMs;
    dynamicBatch = dynamicBatch == null || dynamicBatch;
    maxUnconfirmedMessages = maxUnconfirmedMessages == null ? 10_000 : maxUnconfirmedMessages;
    subEntrySize = subEntrySize == null ? 1 : subEntrySize;
    initialCredits = initialCredits == null ? 10 : initialCredits;
    maxLengthBytes = maxLengthBytes == null ? 0L : maxLengthBytes;
    producersByConnection = producersByConnection == null ? 1 : producersByConnection;
    consumersByConnection = consumersByConnection == null ? 1 : consumersByConnection;
    locatorPorts =
        locatorPorts == null || locatorPorts.isEmpty() ? List.of(port) : List.copyOf(locatorPorts);
    queueLeaderLocator =
        queueLeaderLocator == null ? QueueLeaderLocator.BALANCED : queueLeaderLocator;
    requestedMaxFrameSize = requestedMaxFrameSize == null ? 1_048_576 : requestedMaxFrameSize;
  }

  /** Reads and checks the file's settings, with host and port from the environment if set. */
  static RabbitMqStreamConfig read(DriverSettings file, Map<String, String> environment)
      throws DriverConfigException {
    DriverSettings s =
        file.withEnvironment(
            environment, Map.of("RABBITMQ_STREAM_HOST", "host", "RABBITMQ_STREAM_PORT", "port"));
    RabbitMqStreamConfig config =
        new RabbitMqStreamConfig(
            s.string("host").orElse(null),
            s.integer("port").orElse(null),
            s.string("username").orElse(null),
            s.string("password").orElse(null),
            s.string("virtualHost").orElse(null),
            s.integer("batchSize").orElse(null),
            s.integer("batchPublishingDelayMs").orElse(null),
            s.bool("dynamicBatch").orElse(null),
            s.integer("maxUnconfirmedMessages").orElse(null),
            s.integer("subEntrySize").orElse(null),
            s.integer("initialCredits").orElse(null),
            s.longValue("maxLengthBytes").orElse(null),
            s.integer("producersByConnection").orElse(null),
            s.integer("consumersByConnection").orElse(null),
            s.integer(ClusterView.REPLICAS_FIELD).orElse(null),
            locatorPorts(s),
            s.enumValue("queueLeaderLocator", QueueLeaderLocator.class).orElse(null),
            s.integer("requestedMaxFrameSize").orElse(null));
    s.finish();
    config.validate(s);
    return config;
  }

  private static List<Integer> locatorPorts(DriverSettings s) throws DriverConfigException {
    List<String> values = s.list("locatorPorts").orElse(null);
    if (values == null) {
      return null;
    }
    List<Integer> ports = new ArrayList<>();
    for (String value : values) {
      try {
        ports.add(Integer.parseInt(value.trim()));
      } catch (NumberFormatException e) {
        throw s.error("locatorPorts", "'" + value + "' is not allowed; allowed: port numbers");
      }
    }
    return ports;
  }

  private void validate(DriverSettings s) throws DriverConfigException {
    positive(s, "port", port);
    positive(s, "batchSize", batchSize);
    positive(s, "maxUnconfirmedMessages", maxUnconfirmedMessages);
    positive(s, "subEntrySize", subEntrySize);
    positive(s, "initialCredits", initialCredits);
    positive(s, "producersByConnection", producersByConnection);
    positive(s, "consumersByConnection", consumersByConnection);
    positive(s, "requestedMaxFrameSize", requestedMaxFrameSize);
    if (batchPublishingDelayMs < 0) {
      throw s.error("batchPublishingDelayMs", batchPublishingDelayMs + "; allowed: 0 or more");
    }
    ClusterView.checkReplicasField(s, replicas);
    if (maxLengthBytes < 0) {
      throw s.error("maxLengthBytes", maxLengthBytes + "; allowed: 0 (unlimited) or more");
    }
  }

  private static void positive(DriverSettings s, String field, int value)
      throws DriverConfigException {
    if (value <= 0) {
      throw s.error(field, value + "; allowed: a positive number");
    }
  }
}
