package io.plumb.driver.rabbitmq;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The AMQP driver's YAML, in OMB's RabbitMQ format ({@code amqpUris}, {@code messagePersistence},
 * {@code queueType}) plus Plumb's own fields. Absent fields take the defaults below.
 *
 * @param amqpUris broker URIs; producers and consumers are spread over them round robin
 * @param messagePersistence publish with delivery mode 2 (written to disk by durable queues)
 * @param queueType classic, quorum or stream
 * @param durable declare exchanges and queues durable; quorum and stream queues always are
 * @param publisherConfirms a send completes when the broker confirms it (else when it is written to
 *     the socket)
 * @param exchangeType direct or topic
 * @param prefetchCount unacknowledged messages the broker may push to each queue consumer
 * @param ackBatchSize acknowledge with {@code multiple=true} once every this many deliveries
 * @param replicas nodes holding a copy of each quorum queue ({@code x-quorum-initial-group-size}),
 *     stream queue ({@code x-initial-cluster-size}) or mirrored classic queue ({@code ha-params}
 *     with {@code haMode: exactly}); null leaves the broker's default (every node); a classic queue
 *     without {@code haMode} has one copy and takes none
 * @param managementUris the management plugin's HTTP endpoints, tried in turn (leader, topology and
 *     partition counts are read there); by default port 15672 on the first AMQP host
 * @param heartbeatSeconds AMQP heartbeat the client asks for: a silent (frozen, cut off) node's
 *     connection is given up after about twice this
 * @param recoveryIntervalMs wait between the client's attempts to reconnect a lost connection (to
 *     the next of {@code amqpUris}) and recover its channels, consumers and declarations
 * @param confirmTimeoutMs a publish the broker has neither confirmed nor nacked after this fails
 *     (its connection may look alive while the broker never answers)
 * @param maxUnconfirmed sends awaiting a confirm per partition channel at most (0: no bound but the
 *     socket's); a send beyond waits up to {@code maxBlockMs} for room, then fails
 * @param maxBlockMs how long a send may wait for room among {@code maxUnconfirmed}
 * @param producerCreationDelay accepted for OMB files; Plumb creates producers without delays
 * @param producerCreationBatchSize accepted for OMB files; ignored
 * @param consumerCreationDelay accepted for OMB files; ignored
 * @param consumerCreationBatchSize accepted for OMB files; ignored
 * @param queueLeaderLocator where the broker puts each queue's leader; by default {@code balanced}
 *     (spread over the nodes) for quorum queues, streams and mirrored classic queues, and the
 *     broker's own default for a classic queue that is not mirrored (as OMB declares it)
 * @param mirroring classic mirrored queues ({@code haMode}, {@code haSyncMode}, {@code
 *     haPromoteOnShutdown}, {@code haPromoteOnFailure}), applied as a policy; null when not asked
 */
public record RabbitMqConfig(
    List<String> amqpUris,
    Boolean messagePersistence,
    QueueType queueType,
    Boolean durable,
    Boolean publisherConfirms,
    ExchangeType exchangeType,
    Integer prefetchCount,
    Integer ackBatchSize,
    Integer replicas,
    List<String> managementUris,
    Integer heartbeatSeconds,
    Integer recoveryIntervalMs,
    Long confirmTimeoutMs,
    Integer maxUnconfirmed,
    Long maxBlockMs,
    Long producerCreationDelay,
    Integer producerCreationBatchSize,
    Long consumerCreationDelay,
    Integer consumerCreationBatchSize,
    QueueLeaderLocator queueLeaderLocator,
    ClassicMirroring mirroring) {

  static final String DEFAULT_URI = "amqp://guest:guest@127.0.0.1:5672";

  /** The management plugin's default port, on the first AMQP host unless managementUris says. */
  static final int MANAGEMENT_PORT = 15672;

  /** The client's own default heartbeat. */
  static final int DEFAULT_HEARTBEAT_SECONDS = 60;

  public RabbitMqConfig {
    amqpUris =
        amqpUris == null || amqpUris.isEmpty() ? List.of(DEFAULT_URI) : List.copyOf(amqpUris);
    messagePersistence = messagePersistence != null && messagePersistence;
    queueType = queueType == null ? QueueType.CLASSIC : queueType;
    // OMB's driver always declares durable queues and waits for confirms, so an OMB file without
    // these fields is measured the way OMB measures it.
    durable = durable == null || durable;
    publisherConfirms = publisherConfirms == null || publisherConfirms;
    exchangeType = exchangeType == null ? ExchangeType.DIRECT : exchangeType;
    prefetchCount = prefetchCount == null ? 1000 : prefetchCount;
    ackBatchSize =
        ackBatchSize == null ? Math.max(1, Math.min(64, prefetchCount / 4)) : ackBatchSize;
    managementUris =
        managementUris == null || managementUris.isEmpty()
            ? List.of("http://" + firstHost(amqpUris) + ":" + MANAGEMENT_PORT)
            : List.copyOf(managementUris);
    heartbeatSeconds = heartbeatSeconds == null ? DEFAULT_HEARTBEAT_SECONDS : heartbeatSeconds;
    recoveryIntervalMs = recoveryIntervalMs == null ? 1000 : recoveryIntervalMs;
    confirmTimeoutMs = confirmTimeoutMs == null ? 30_000L : confirmTimeoutMs;
    maxUnconfirmed = maxUnconfirmed == null ? 0 : maxUnconfirmed;
    maxBlockMs = maxBlockMs == null ? 5_000L : maxBlockMs;
    if (queueLeaderLocator == null && (queueType != QueueType.CLASSIC || mirroring != null)) {
      queueLeaderLocator = QueueLeaderLocator.BALANCED;
    }
  }

  /** The host of the first AMQP URI (127.0.0.1 if it has none or cannot be parsed). */
  private static String firstHost(List<String> uris) {
    try {
      String host = URI.create(uris.get(0)).getHost();
      return host == null || host.isBlank() ? "127.0.0.1" : host;
    } catch (IllegalArgumentException e) {
      return "127.0.0.1";
    }
  }

  /** Environment variable that replaces {@code amqpUris}, beneath {@code --driver-set}. */
  static final String URI_ENV = "RABBITMQ_URI";

  /** The file's settings with {@value #URI_ENV} beneath the command line's values. */
  static DriverSettings withEnvironment(DriverSettings file, Map<String, String> environment) {
    return file.withEnvironment(environment, Map.of(URI_ENV, "amqpUris"));
  }

  /** Reads and checks the settings (absent fields take the defaults above). */
  static RabbitMqConfig read(DriverSettings s) throws DriverConfigException {
    Integer replicas = s.integer(ClusterView.REPLICAS_FIELD).orElse(null);
    RabbitMqConfig config =
        new RabbitMqConfig(
            s.list("amqpUris").orElse(null),
            s.bool("messagePersistence").orElse(null),
            s.enumValue("queueType", QueueType.class).orElse(null),
            s.bool("durable").orElse(null),
            s.bool("publisherConfirms").orElse(null),
            s.enumValue("exchangeType", ExchangeType.class).orElse(null),
            s.integer("prefetchCount").orElse(null),
            s.integer("ackBatchSize").orElse(null),
            replicas,
            s.list("managementUris").orElse(null),
            s.integer("heartbeatSeconds").orElse(null),
            s.integer("recoveryIntervalMs").orElse(null),
            s.longValue("confirmTimeoutMs").orElse(null),
            s.integer("maxUnconfirmed").orElse(null),
            s.longValue("maxBlockMs").orElse(null),
            s.longValue("producerCreationDelay").orElse(null),
            s.integer("producerCreationBatchSize").orElse(null),
            s.longValue("consumerCreationDelay").orElse(null),
            s.integer("consumerCreationBatchSize").orElse(null),
            s.enumValue("queueLeaderLocator", QueueLeaderLocator.class).orElse(null),
            MirroringSettings.read(s, replicas));
    s.finish();
    config.validate(s);
    return config;
  }

  /**
   * The queue declaration arguments: the type, the copies (quorum queues and streams; a mirrored
   * classic queue's come from its policy) and the leader's placement.
   */
  Map<String, Object> queueArguments() {
    Map<String, Object> arguments =
        new HashMap<>(queueType.declareArguments(queueType == QueueType.CLASSIC ? null : replicas));
    if (queueLeaderLocator != null) {
      arguments.put(queueLeaderLocator.argument(queueType), queueLeaderLocator.value(queueType));
    }
    return Map.copyOf(arguments);
  }

  /** Checks combinations the broker would reject or that would stall consumers. */
  private void validate(DriverSettings s) throws DriverConfigException {
    if (queueType.alwaysDurable() && !durable) {
      throw s.error(
          "durable", queueType.brokerName() + " queues are always durable; allowed: true");
    }
    if (prefetchCount <= 0) {
      throw s.error(
          "prefetchCount",
          prefetchCount
              + " is not allowed; allowed: a positive count (streams need one, and an unbounded"
              + " prefetch hides the consumer backlog inside the client)");
    }
    if (ackBatchSize <= 0 || ackBatchSize > prefetchCount) {
      throw s.error(
          "ackBatchSize",
          ackBatchSize
              + " is not allowed; allowed: 1.."
              + prefetchCount
              + " (at most prefetchCount, else consumers stall waiting for their own acks)");
    }
    MirroringSettings.check(s, queueType, replicas, mirroring);
    ClusterView.checkReplicasField(s, replicas);
    for (String uri : managementUris) {
      if (!uri.startsWith("http://") && !uri.startsWith("https://")) {
        throw s.error(
            "managementUris",
            "'" + uri + "' is not allowed; allowed: http://host:port of a management plugin");
      }
    }
    if (heartbeatSeconds < 0) {
      throw s.error(
          "heartbeatSeconds", heartbeatSeconds + " is not allowed; allowed: 0 (none) or more");
    }
    if (recoveryIntervalMs <= 0) {
      throw s.error(
          "recoveryIntervalMs", recoveryIntervalMs + " is not allowed; allowed: 1 or more");
    }
    if (maxUnconfirmed < 0) {
      throw s.error(
          "maxUnconfirmed", maxUnconfirmed + " is not allowed; allowed: 0 (no bound) or more");
    }
    if (maxBlockMs < 0) {
      throw s.error("maxBlockMs", maxBlockMs + " is not allowed; allowed: 0 or more");
    }
    if (confirmTimeoutMs <= 0) {
      throw s.error("confirmTimeoutMs", confirmTimeoutMs + " is not allowed; allowed: 1 or more");
    }
  }
}
