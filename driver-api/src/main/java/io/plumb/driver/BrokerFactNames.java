package io.plumb.driver;

/**
 * Names of the {@link BenchmarkDriver#brokerFacts() broker facts} that every driver reports the
 * same way, so results from different brokers compare field by field. Each value is what the broker
 * itself said, never what the driver file asked for.
 */
public final class BrokerFactNames {

  /** Copies of the run's topics that the broker reports, as a whole number (e.g. "3"). */
  public static final String REPLICAS = "replicas";

  /** The nodes that hold those copies, comma-separated, as the broker names them. */
  public static final String REPLICA_NODES = "replicaNodes";

  /** Nodes in the cluster the driver is connected to, as a whole number. */
  public static final String NODES = "nodes";

  /** The broker's own version string. */
  public static final String BROKER_VERSION = "brokerVersion";

  /**
   * The largest message body, in bytes, that this driver can send as configured, as a whole number:
   * the smallest of the client's and the broker's limits, less what the driver adds around the
   * body. Reported by drivers whose broker or client has such a limit; the run refuses a workload
   * whose {@code messageSize} is larger before any topic exists, instead of failing every send.
   */
  public static final String MAX_MESSAGE_BYTES = "maxMessageBytes";

  /**
   * Which setting decides {@link #MAX_MESSAGE_BYTES}, with its value, and how to raise it: the
   * refusal quotes it (e.g. "producerConfig max.request.size 1048576, less 100 bytes of record and
   * batch framing; raise it with --driver-set producerConfig.max.request.size=N").
   */
  public static final String MAX_MESSAGE_BYTES_LIMIT = "maxMessageBytes.limit";

  /**
   * The most sends one producer may have awaiting the broker's acknowledgement at once, as
   * configured and in force for this run, after the client's own defaults: a whole number of
   * messages (e.g. "8000"), {@value #UNBOUNDED} when no setting bounds them (only the socket or the
   * client's memory does), or a whole number and a unit when the client counts something else (e.g.
   * "33554432 bytes"). A producer whose window is full waits for an acknowledgement before it sends
   * again, so its rate is at most about the window over the round trip: a peak found at a window's
   * limit measures the setting, not the broker. Built with {@link ClientWindow}.
   */
  public static final String SEND_WINDOW = "sendWindow";

  /**
   * Which setting decides {@link #SEND_WINDOW}, with its value, and how to change it. It begins
   * with the setting's name as {@code --driver-set} takes it, followed by a space, so a report can
   * name the setting beside the window (e.g. "maxUnconfirmed 2000 per partition channel x 4
   * partitions; set it with --driver-set maxUnconfirmed=N, 0 for no bound").
   */
  public static final String SEND_WINDOW_LIMIT = "sendWindow.limit";

  /**
   * The most deliveries one consumer may hold before it acknowledges (or, where the protocol has no
   * acknowledgement, before it asks for more), as configured and in force for this run: the broker
   * stops delivering to a consumer whose window is full. Same forms as {@link #SEND_WINDOW} (e.g.
   * "1000", "10 chunks", "1048576 bytes", {@value #UNBOUNDED}).
   */
  public static final String RECEIVE_WINDOW = "receiveWindow";

  /**
   * Which setting decides {@link #RECEIVE_WINDOW}, with its value, and how to change it; begins
   * with the setting's name as {@link #SEND_WINDOW_LIMIT} does (e.g. "prefetchCount 1000 per
   * partition queue x 4 partitions; set it with --driver-set prefetchCount=N").
   */
  public static final String RECEIVE_WINDOW_LIMIT = "receiveWindow.limit";

  /**
   * Where this driver can carry the framework's per-message header outside the message body, in a
   * few words that name the broker's own field (e.g. "Kafka record header 'plumb'"). Reported only
   * by drivers whose producers implement {@link BenchmarkProducer#send(String, byte[], byte[],
   * long, SendListener)} and whose consumers (and final reader) call {@link
   * MessageListener#received(byte[], byte[], int)} for such messages: a run can then send bodies
   * smaller than the header, down to one byte.
   */
  public static final String HEADER_METADATA = "headerMetadata";

  /**
   * The bytes a message carries on the wire for {@link #HEADER_METADATA}, as a whole number: the
   * header's own bytes plus the field's name, lengths and encoding (e.g. "33" for a Kafka record
   * header: 5 name bytes, 26 value bytes, 2 length varints). The body's bytes are not counted.
   */
  public static final String HEADER_METADATA_BYTES = "headerMetadata.bytes";

  /**
   * The most messages one partition keeps before the broker discards its oldest, received or not (a
   * Redis stream's {@code MAXLEN}), as a whole number. Reported by drivers whose files cap
   * partitions so; a backlog workload whose backlog would not fit is refused before any topic
   * exists, since what the broker discarded unread would count as lost.
   */
  public static final String RETENTION_MESSAGES_PER_PARTITION = "retention.messagesPerPartition";

  /**
   * The most messages one topic keeps before the broker discards its oldest, received or not (a
   * JetStream stream's {@code max_msgs}), as a whole number; checked as {@link
   * #RETENTION_MESSAGES_PER_PARTITION} is.
   */
  public static final String RETENTION_MESSAGES_PER_TOPIC = "retention.messagesPerTopic";

  /**
   * The most bytes one topic keeps before the broker discards its oldest messages, received or not
   * (a JetStream stream's {@code max_bytes}), as a whole number; a backlog whose bodies alone reach
   * it is refused (the broker's own bytes per message only add to them).
   */
  public static final String RETENTION_BYTES_PER_TOPIC = "retention.bytesPerTopic";

  /**
   * Which settings decide the retention limits above, with their values, and how to change them
   * (e.g. "maxLen 100000 per partition stream; raise it with --driver-set maxLen=N, 0 for none"):
   * the refusal quotes it.
   */
  public static final String RETENTION_LIMIT = "retention.limit";

  /** The value of {@link #SEND_WINDOW} or {@link #RECEIVE_WINDOW} when no setting bounds it. */
  public static final String UNBOUNDED = "unbounded";

  private BrokerFactNames() {}
}
