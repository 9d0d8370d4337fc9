package io.plumb.driver.kafka;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.FieldNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The client and topic settings a run uses, resolved from the driver file, the environment and the
 * command line, in that order of increasing precedence.
 *
 * <p>Property names are checked against kafka-clients' own lists, because the Kafka client only
 * logs a warning for a name it does not know: a misspelled {@code lingr.ms} would otherwise
 * silently benchmark the default.
 *
 * @param producer settings for every {@code KafkaProducer}
 * @param consumer settings for every {@code KafkaConsumer}, without {@code group.id}
 * @param admin settings for the admin client
 * @param topicConfig topic-level settings applied at creation
 * @param replicationFactor replicas per partition, empty for the broker's default
 * @param reset delete leftover topics with the run's prefix at start
 * @param autoCommit whether the consumer client commits offsets by itself
 */
record KafkaSettings(
    Map<String, Object> producer,
    Map<String, Object> consumer,
    Map<String, Object> admin,
    Map<String, String> topicConfig,
    Optional<Short> replicationFactor,
    boolean reset,
    boolean autoCommit) {

  /** Environment variable that points every client at another cluster. */
  static final String BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS";

  /** {@code --driver-set} key that replaces the file's replication factor. */
  static final String REPLICATION_FACTOR_KEY = "replicationFactor";

  /** {@code --driver-set} prefix for a topic-level setting, e.g. {@code topicConfig.flush.ms}. */
  static final String TOPIC_CONFIG_PREFIX = "topicConfig.";

  private static final Set<String> PRODUCER_NAMES = ProducerConfig.configNames();
  private static final Set<String> CONSUMER_NAMES = ConsumerConfig.configNames();
  private static final Set<String> ADMIN_NAMES = AdminClientConfig.configNames();
  private static final Set<String> ANY_CLIENT_NAMES =
      union(PRODUCER_NAMES, union(CONSUMER_NAMES, ADMIN_NAMES));

  private static final Pattern CONFIG_EXCEPTION_NAME =
      Pattern.compile("for configuration ([^:\\s]+)");

  KafkaSettings {
    producer = Map.copyOf(producer);
    consumer = Map.copyOf(consumer);
    admin = Map.copyOf(admin);
    topicConfig = Map.copyOf(topicConfig);
  }

  /**
   * Resolves the settings.
   *
   * @param file the driver file's settings with the {@code --driver-set} values: Kafka client
   *     properties, {@value #REPLICATION_FACTOR_KEY}, or {@value #TOPIC_CONFIG_PREFIX}{@code <topic
   *     property>}
   * @param environment the process environment (only {@value #BOOTSTRAP_ENV} is read)
   */
  static KafkaSettings resolve(DriverSettings file, Map<String, String> environment)
      throws DriverConfigException {
    Optional<Integer> replicas = file.integer(REPLICATION_FACTOR_KEY);
    boolean reset = file.bool("reset", false);
    // topicConfig.<property> values from --driver-set are added here.
    Map<String, String> topic = new LinkedHashMap<>(file.properties("topicConfig"));
    Map<String, String> common = file.properties("commonConfig");
    Map<String, String> producerBlock = file.properties("producerConfig");
    Map<String, String> consumerBlock = file.properties("consumerConfig");

    // Later sources win: file < environment < command line. Each origin is remembered so that
    // a value Kafka rejects is reported where the user wrote it.
    Map<String, String> origins = new LinkedHashMap<>();
    Map<String, String> clientOverrides = new LinkedHashMap<>();
    String bootstrapFromEnv = environment.get(BOOTSTRAP_ENV);
    if (bootstrapFromEnv != null && !bootstrapFromEnv.isBlank()) {
      clientOverrides.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapFromEnv.trim());
      origins.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "environment " + BOOTSTRAP_ENV);
    }
    for (String key : file.overrides().keySet()) {
      if (ANY_CLIENT_NAMES.contains(key)) {
        clientOverrides.put(key, file.override(key).orElseThrow());
        origins.put(key, "--driver-set " + key);
      } else if (!key.equals(REPLICATION_FACTOR_KEY) && !key.contains("Config.")) {
        String suggestion =
            FieldNames.closest(key, union(ANY_CLIENT_NAMES, Set.of(REPLICATION_FACTOR_KEY)));
        throw file.overrideError(
            key,
            "not a Kafka client property"
                + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)")
                + "; the Kafka driver accepts Kafka client properties (e.g. bootstrap.servers), "
                + REPLICATION_FACTOR_KEY
                + " and "
                + TOPIC_CONFIG_PREFIX
                + "<topic property>");
      }
    }
    file.finish();

    checkNames(file, "commonConfig", common, ANY_CLIENT_NAMES, "Kafka client");
    checkNames(file, "producerConfig", producerBlock, PRODUCER_NAMES, "Kafka producer");
    checkNames(file, "consumerConfig", consumerBlock, CONSUMER_NAMES, "Kafka consumer");
    if (replicas.isPresent() && (replicas.get() < 1 || replicas.get() > Short.MAX_VALUE)) {
      throw file.error(
          REPLICATION_FACTOR_KEY, "expected a whole number from 1 to 32767, got " + replicas.get());
    }
    Optional<Short> replicationFactor = replicas.map(Integer::shortValue);

    Map<String, Object> producer = new LinkedHashMap<>();
    putKnown(producer, common, PRODUCER_NAMES);
    producer.putAll(producerBlock);
    putKnown(producer, clientOverrides, PRODUCER_NAMES);
    producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());

    Map<String, Object> consumer = new LinkedHashMap<>();
    putKnown(consumer, common, CONSUMER_NAMES);
    consumer.putAll(consumerBlock);
    putKnown(consumer, clientOverrides, CONSUMER_NAMES);
    consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    consumer.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    // A subscription must see every message of the run, also those sent before it joined.
    consumer.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    // The driver commits itself (asynchronously, about once a second) unless the file asks for
    // the client's auto-commit explicitly; Kafka's own default would be auto-commit.
    consumer.putIfAbsent(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");

    Map<String, Object> admin = new LinkedHashMap<>();
    putKnown(admin, common, ADMIN_NAMES);
    putKnown(admin, clientOverrides, ADMIN_NAMES);

    if (!admin.containsKey(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)) {
      throw file.error(
          "commonConfig",
          "bootstrap.servers is not set: add it here, set "
              + BOOTSTRAP_ENV
              + " or pass --driver-set bootstrap.servers=host:port");
    }

    // Let kafka-clients check every value now, so a bad one fails the run before it starts.
    boolean autoCommit;
    try {
      new ProducerConfig(producer);
    } catch (ConfigException e) {
      throw valueError(file, e, producerBlock, common, origins, "producerConfig");
    }
    try {
      autoCommit =
          new ConsumerConfig(consumer).getBoolean(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);
    } catch (ConfigException e) {
      throw valueError(file, e, consumerBlock, common, origins, "consumerConfig");
    }
    try {
      new AdminClientConfig(admin);
    } catch (ConfigException e) {
      throw valueError(file, e, Map.of(), common, origins, "commonConfig");
    }
    return new KafkaSettings(
        producer, consumer, admin, topic, replicationFactor, reset, autoCommit);
  }

  private static void checkNames(
      DriverSettings file, String field, Map<String, String> values, Set<String> known, String kind)
      throws DriverConfigException {
    for (String key : values.keySet()) {
      if (!known.contains(key)) {
        String suggestion = FieldNames.closest(key, known);
        throw file.error(
            field,
            key,
            "unknown "
                + kind
                + " property '"
                + key
                + "'"
                + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)"));
      }
    }
  }

  private static DriverConfigException valueError(
      DriverSettings file,
      ConfigException e,
      Map<String, String> block,
      Map<String, String> common,
      Map<String, String> origins,
      String blockField) {
    Matcher name = CONFIG_EXCEPTION_NAME.matcher(String.valueOf(e.getMessage()));
    String key = name.find() ? name.group(1) : null;
    String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("invalid value");
    if (key != null && origins.containsKey(key)) {
      return new DriverConfigException(origins.get(key) + ": " + message);
    }
    if (key != null && !block.containsKey(key) && common.containsKey(key)) {
      return file.error("commonConfig", key, message);
    }
    return key == null ? file.error(blockField, message) : file.error(blockField, key, message);
  }

  private static void putKnown(
      Map<String, Object> target, Map<String, String> source, Set<String> known) {
    source.forEach(
        (key, value) -> {
          if (known.contains(key)) {
            target.put(key, value);
          }
        });
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new TreeSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
