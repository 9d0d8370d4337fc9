package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import io.plumb.testkit.ConfigRefusal;
import io.plumb.testkit.OmbDriverClass;
import io.plumb.worker.DriverSettingsReader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The driver against the real local broker ({@code deploy/local/kafka.sh start}), through the
 * driver API only, for every driver file the module ships and for OMB's own file.
 */
class KafkaDriverTest {

  private static final String BOOTSTRAP = LocalKafka.BOOTSTRAP;
  private static final int PARTITIONS = 3;
  private static final int MESSAGES = 2_000;
  private static final int KEYS = 50;
  private static final int PAYLOAD_SIZE = 128;
  private static final long WAIT_SECONDS = 30;

  // JUnit closes it after the last test; it stays null when no broker answered.
  @AutoClose private static Admin admin;

  @TempDir Path dir;

  @BeforeAll
  static void brokerIsRunning() {
    admin = LocalKafka.admin();
  }

  /** Every shipped file points at the local broker; tests may run against another one. */
  private static DriverConfig config(Path file) throws DriverConfigException {
    return DriverSettingsReader.config(file, Map.of("bootstrap.servers", BOOTSTRAP));
  }

  private static Path driverFile(String name) {
    Path shipped = Path.of(name);
    return Files.exists(shipped) ? shipped : Path.of("src/test/resources", name);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "kafka.yaml",
        "kafka-throughput.yaml",
        "kafka-latency.yaml",
        "kafka-sync.yaml",
        "omb-kafka.yaml"
      })
  void everyMessageReachesEverySubscriptionOnceInOrder(String name) throws Exception {
    Path file = driverFile(name);
    String topic = "plumb-test-" + name.replace(".yaml", "") + "-" + System.nanoTime();
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver()) {
      driver.initialize(config(file));
      driver.createTopic(topic, PARTITIONS).get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertTopicHasPromisedSettings(file, topic);

      Subscription shared = new Subscription();
      Subscription single = new Subscription();
      List<BenchmarkConsumer> consumers = new ArrayList<>();
      consumers.add(driver.createConsumer(topic, "shared", shared).get());
      consumers.add(driver.createConsumer(topic, "shared", shared).get());
      consumers.add(driver.createConsumer(topic, "single", single).get());

      Sends sends = new Sends(MESSAGES);
      try (BenchmarkProducer producer = driver.createProducer(topic).get()) {
        send(producer, 0, MESSAGES, sends);
        assertTrue(
            sends.all.await(WAIT_SECONDS, TimeUnit.SECONDS),
            "sends completed: " + (MESSAGES - sends.all.getCount()) + " of " + MESSAGES);
      }
      assertEquals(0, sends.failures.get(), "failed sends, first: " + sends.firstFailure.get());
      assertEquals(0, sends.repeated.get(), "sends completed more than once");

      shared.assertReceivedAll("shared (2 consumers)");
      single.assertReceivedAll("single (1 consumer)");

      if (name.equals("kafka-sync.yaml")) {
        Map<String, String> facts = driver.brokerFacts();
        assertTrue(facts.get("topic.flush.messages").startsWith("1 "), facts.toString());
        assertTrue(facts.get("topic.flush.ms").startsWith("0 "), facts.toString());
      }
      for (BenchmarkConsumer consumer : consumers) {
        consumer.close();
      }
      assertNoPollThreadLeft(topic);
      driver.deleteTopics(List.of(topic)).get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertFalse(admin.listTopics().names().get().contains(topic), "topic deleted");
    }
  }

  /**
   * A consumer joining and one leaving mid-stream move partitions between members: committing at
   * every revocation and at close keeps the subscription at exactly once.
   */
  @Test
  void membersJoiningAndLeavingMidStreamCauseNoDuplicates() throws Exception {
    String topic = "plumb-test-rebalance-" + System.nanoTime();
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver()) {
      driver.initialize(config(Path.of("kafka.yaml")));
      driver.createTopic(topic, PARTITIONS).get(WAIT_SECONDS, TimeUnit.SECONDS);
      Subscription subscription = new Subscription(700, 1400);
      Sends sends = new Sends(MESSAGES);
      try (BenchmarkProducer producer = driver.createProducer(topic).get()) {
        BenchmarkConsumer first = driver.createConsumer(topic, "members", subscription).get();
        send(producer, 0, 700, sends);
        subscription.awaitDistinct(700);
        BenchmarkConsumer second = driver.createConsumer(topic, "members", subscription).get();
        send(producer, 700, 1400, sends);
        subscription.awaitDistinct(1400);
        first.close();
        send(producer, 1400, MESSAGES, sends);
        subscription.assertReceivedAll("members joining and leaving");
        second.close();
      }
      assertTrue(sends.all.await(WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals(0, sends.failures.get(), "failed sends, first: " + sends.firstFailure.get());
      driver.deleteTopics(List.of(topic)).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /** Sends messages {@code from} to {@code to - 1}, keyed, with their index in the payload. */
  private static void send(BenchmarkProducer producer, int from, int to, Sends sends) {
    byte[] payload = new byte[PAYLOAD_SIZE];
    for (int i = from; i < to; i++) {
      // The same array for every send, as the framework does: the driver must not keep it.
      ByteBuffer.wrap(payload).putInt(0, i);
      Arrays.fill(payload, 4, PAYLOAD_SIZE, (byte) i);
      producer.send("key-" + (i % KEYS), payload, i, sends);
    }
  }

  @Test
  void syncFileReallyFsyncsEveryMessage() throws Exception {
    String topic = "plumb-test-sync-config-" + System.nanoTime();
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver()) {
      driver.initialize(config(Path.of("kafka-sync.yaml")));
      // Before any topic exists the facts come from the broker's validation of the settings.
      Map<String, String> facts = driver.brokerFacts();
      assertTrue(facts.get("topic.flush.messages").startsWith("1 "), facts.toString());
      assertTrue(facts.get("topic.flush.ms").startsWith("0 "), facts.toString());
      assertEquals("all", facts.get("producer.acks"));
      assertEquals("true", facts.get("producer.enable.idempotence"));
      driver.createTopic(topic, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
      Config config = topicConfig(topic);
      assertEquals("1", config.get("flush.messages").value());
      assertEquals("0", config.get("flush.ms").value());
      driver.deleteTopics(List.of(topic)).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  @Test
  void ombDriverClassIsAnAlias() {
    OmbDriverClass.assertAliasedAndListed(
        KafkaBenchmarkDriver.class, "io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver");
  }

  @Test
  void sendOnClosedProducerIsReportedToTheListenerOnce() throws Exception {
    String topic = "plumb-test-closed-" + System.nanoTime();
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver()) {
      driver.initialize(config(Path.of("kafka.yaml")));
      driver.createTopic(topic, 1).get(WAIT_SECONDS, TimeUnit.SECONDS);
      BenchmarkProducer producer = driver.createProducer(topic).get();
      producer.close();
      Sends sends = new Sends(1);
      producer.send("k", new byte[] {1}, 0, sends);
      // A closed producer throws inside send(): the listener hears it before send() returns.
      assertEquals(0, sends.all.getCount());
      assertEquals(1, sends.failures.get());
      assertTrue(
          sends.firstFailure.get() instanceof IllegalStateException,
          sends.firstFailure.get().toString());
      driver.deleteTopics(List.of(topic)).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  @Test
  void replicationFactorAboveBrokerCountIsRejectedBeforeTheRun() throws Exception {
    Path file = dir.resolve("rf3.yaml");
    String refusal = refusalOfFileWith(file, "replicationFactor: 3\n");
    assertEquals(
        file
            + ":2: field 'replicationFactor': asks for 3 copies but the Kafka cluster at "
            + BOOTSTRAP
            + " has 1 broker (start 3: deploy/local/kafka.sh start --nodes 3)",
        refusal);
  }

  @Test
  void unknownTopicSettingIsRejectedByTheBrokerBeforeTheRun() throws Exception {
    Path file = dir.resolve("topic.yaml");
    String refusal =
        refusalOfFileWith(
            file,
            """
            topicConfig: |
              flush.mesages=1
            """);
    assertTrue(
        refusal.startsWith(file + ":2: field 'topicConfig': the broker rejects it"), refusal);
    assertTrue(refusal.contains("flush.mesages"), refusal);
  }

  /**
   * Writes a driver file to {@code file}, its {@code fields} from line 2 on, between the name and
   * the local broker's address: the one-line refusal of a driver reading it.
   */
  private static String refusalOfFileWith(Path file, String fields) throws Exception {
    Files.writeString(
        file, "name: Kafka\n" + fields + "commonConfig: |\n  bootstrap.servers=127.0.0.1:9092\n");
    return ConfigRefusal.messageOf(
        KafkaBenchmarkDriver::new, file, Map.of("bootstrap.servers", BOOTSTRAP));
  }

  /** What the file's topicConfig and replicationFactor promise, read back from the broker. */
  private static void assertTopicHasPromisedSettings(Path file, String topic) throws Exception {
    KafkaSettings promised = KafkaSettings.resolve(config(file).settings(), Map.of());
    Config actual = topicConfig(topic);
    for (Map.Entry<String, String> setting : promised.topicConfig().entrySet()) {
      assertEquals(
          setting.getValue(),
          actual.get(setting.getKey()).value(),
          file + ": topic setting " + setting.getKey() + " on the broker");
    }
    TopicDescription description =
        admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
    assertEquals(PARTITIONS, description.partitions().size());
    if (promised.replicationFactor().isPresent()) {
      assertEquals(
          (int) promised.replicationFactor().get(),
          description.partitions().get(0).replicas().size());
    }
  }

  private static Config topicConfig(String topic) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    return admin.describeConfigs(List.of(resource)).all().get().get(resource);
  }

  private static void assertNoPollThreadLeft(String topic) {
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      assertFalse(
          thread.getName().startsWith("kafka-consumer-" + topic),
          "poll thread still running after close: " + thread.getName());
    }
  }

  /** Counts completions per token; completes a latch when every message has completed. */
  private static final class Sends implements SendListener {
    final CountDownLatch all;
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger repeated = new AtomicInteger();
    final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private final Set<Long> completed = ConcurrentHashMap.newKeySet();

    Sends(int expected) {
      all = new CountDownLatch(expected);
    }

    @Override
    public void sendCompleted(long token, Throwable failure) {
      if (!completed.add(token)) {
        repeated.incrementAndGet();
        return;
      }
      if (failure != null) {
        failures.incrementAndGet();
        firstFailure.compareAndSet(null, failure);
      }
      all.countDown();
    }
  }

  /**
   * What one subscription received: each message's count, and for each partition the last message
   * index seen, to check that a partition's messages arrive in the order sent.
   */
  private static final class Subscription implements MessageListener {
    final AtomicReferenceArray<AtomicInteger> counts = new AtomicReferenceArray<>(MESSAGES);
    final CountDownLatch distinct = new CountDownLatch(MESSAGES);
    private final AtomicInteger distinctCount = new AtomicInteger();
    private final Map<Integer, CountDownLatch> milestones = new ConcurrentHashMap<>();

    /**
     * @param milestones distinct-message counts that {@link #awaitDistinct} can wait for
     */
    Subscription(int... milestones) {
      for (int milestone : milestones) {
        this.milestones.put(milestone, new CountDownLatch(1));
      }
    }

    void awaitDistinct(int milestone) throws InterruptedException {
      assertTrue(
          milestones.get(milestone).await(WAIT_SECONDS, TimeUnit.SECONDS),
          "received " + distinctCount.get() + " of " + milestone);
    }

    final AtomicInteger outOfOrder = new AtomicInteger();
    final AtomicInteger corrupt = new AtomicInteger();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Map<Integer, AtomicLong> lastIndexPerPartition = new ConcurrentHashMap<>();
    final Map<Integer, Integer> partitionOfKey = new ConcurrentHashMap<>();

    @Override
    public void received(byte[] payload, int partition) {
      int index = ByteBuffer.wrap(payload).getInt(0);
      if (payload.length != PAYLOAD_SIZE || payload[PAYLOAD_SIZE - 1] != (byte) index) {
        corrupt.incrementAndGet();
        return;
      }
      AtomicLong last = lastIndexPerPartition.computeIfAbsent(partition, p -> new AtomicLong(-1));
      if (last.getAndSet(index) > index) {
        outOfOrder.incrementAndGet();
      }
      // Keyed messages: one key, one partition.
      Integer previous = partitionOfKey.putIfAbsent(index % KEYS, partition);
      if (previous != null && previous != partition) {
        outOfOrder.incrementAndGet();
      }
      counts.compareAndSet(index, null, new AtomicInteger());
      if (counts.get(index).incrementAndGet() == 1) {
        distinct.countDown();
        CountDownLatch milestone = milestones.get(distinctCount.incrementAndGet());
        if (milestone != null) {
          milestone.countDown();
        }
      }
    }

    @Override
    public void failed(Throwable error) {
      failure.compareAndSet(null, error);
    }

    void assertReceivedAll(String what) throws InterruptedException {
      assertTrue(
          distinct.await(WAIT_SECONDS, TimeUnit.SECONDS),
          what + ": received " + (MESSAGES - distinct.getCount()) + " of " + MESSAGES);
      int duplicates = 0;
      for (int i = 0; i < MESSAGES; i++) {
        duplicates += counts.get(i).get() - 1;
      }
      assertEquals(0, duplicates, what + ": duplicates");
      assertEquals(0, corrupt.get(), what + ": corrupt payloads");
      assertEquals(0, outOfOrder.get(), what + ": out of order within a partition");
      assertEquals(null, failure.get(), what + ": consumer failure");
    }
  }
}
