package io.plumb.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BacklogOutcome;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.EachPeriod;
import io.plumb.coordinator.Phase;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.coordinator.RunPlan;
import io.plumb.input.BadInputException;
import io.plumb.message.MessageHeader;
import io.plumb.result.ResultJson;
import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.RecordingLoopbackDriver.Consumer;
import io.plumb.workload.RecordingLoopbackDriver.Producer;
import io.plumb.workload.RecordingLoopbackDriver.Recording;
import io.plumb.workload.RecordingLoopbackDriver.Sent;
import io.plumb.workload.RecordingLoopbackDriver.Topic;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenMessaging Benchmark's workload fields, one test per field, each checking that Plumb gives the
 * field OMB's meaning (as OMB's {@code Workload}, {@code WorkloadGenerator}, {@code LocalWorker}
 * and {@code KeyDistributor} use it), not only that it parses.
 *
 * <p>Most tests read one short run of {@link #SHAPE} on the loopback driver, through {@link
 * RecordingLoopbackDriver}, which records what the framework hands the driver; each checks its
 * field's part of that run.
 */
class OmbWorkloadFieldsTest {
  /** An OMB workload using every field; 2.1 s of load in all. */
  private static final String SHAPE =
      """
      name: OMB fields shape
      topics: 2
      partitionsPerTopic: 4
      keyDistributor: KEY_ROUND_ROBIN
      messageSize: 200
      useRandomizedPayloads: true
      randomBytesRatio: 0.5
      randomizedPayloadPoolSize: 8
      subscriptionsPerTopic: 2
      consumerPerSubscription: 2
      producersPerTopic: 2
      producerRate: 4000
      consumerBacklogSizeGB: 0
      backlogDrainRatio: 1.0
      testDurationMinutes: 0.025
      warmupDurationMinutes: 0.01
      """;

  /**
   * A backlog of 0.01 GiB of 1 KiB messages (10,486) summed over two subscriptions: producers at
   * 5,000 msg/s fill it in about 1.05 s.
   */
  private static final String BACKLOG =
      """
      name: OMB fields backlog
      topics: 1
      partitionsPerTopic: 2
      messageSize: 1024
      subscriptionsPerTopic: 2
      consumerPerSubscription: 1
      producersPerTopic: 1
      producerRate: 5000
      consumerBacklogSizeGB: 0.01
      backlogDrainRatio: 0.25
      testDurationMinutes: 0.01
      warmupDurationMinutes: 0
      """;

  private static final String BASE64URL_10 = "[A-Za-z0-9_-]{10}";

  @TempDir static Path shared;
  private static Run shape;
  private static Run backlog;

  @TempDir Path dir;

  /** A finished run: the workload as read, its report, and what reached the driver. */
  private record Run(
      Workload workload,
      RunReport report,
      Recording recording,
      BenchmarkRun run,
      Map<Phase, Double> phaseSeconds,
      Map<Phase, Long> phaseSent) {}

  @BeforeAll
  static void runShapeAndBacklog() throws IOException {
    shape = run(shared.resolve("shape"), SHAPE, Duration.ofMillis(500));
    backlog = run(shared.resolve("backlog"), BACKLOG, Duration.ofMillis(200));
  }

  // ---- name, topics, partitionsPerTopic ----

  /** OMB: the result's {@code workload} is the workload's name. */
  @Test
  void name() throws IOException {
    assertEquals("OMB fields shape", shape.report().workload().name());
    assertEquals("OMB fields shape", ResultJson.render(shape.report()).get("workload").asText());
    // OMB would write null without one; Plumb names the workload after its file.
    Path unnamed = dir.resolve("unnamed-workload.yaml");
    Files.writeString(unnamed, SHAPE.replace("name: OMB fields shape\n", ""));
    assertEquals("unnamed-workload", WorkloadReader.read(unnamed).name());
  }

  /**
   * The result's broker facts are read again once the consumers exist (a broker whose queues their
   * consumers declare reports where those queues are only then), not only after the topics.
   */
  @Test
  void brokerFactsAreReadOnceConsumersExist() {
    assertEquals(
        String.valueOf(shape.recording().consumers.size()),
        shape.report().brokerFacts().get(RecordingLoopbackDriver.CONSUMERS_FACT));
    assertTrue(shape.recording().consumers.size() > 0);
  }

  /** OMB: the run creates this many topics, each with its producers and subscriptions. */
  @Test
  void topics() {
    Recording recording = shape.recording();
    Set<String> created = recording.topics.stream().map(Topic::name).collect(Collectors.toSet());
    assertEquals(2, recording.topics.size());
    assertEquals(2, created.size());
    assertEquals(
        created, recording.producers.stream().map(Producer::topic).collect(Collectors.toSet()));
    assertEquals(
        created, recording.consumers.stream().map(Consumer::topic).collect(Collectors.toSet()));
    for (String topic : created) {
      assertTrue(sentTo(recording, topic) > 1_000, topic + " carried traffic");
    }
  }

  /** OMB: every topic is created with this many partitions, and keyed traffic uses them all. */
  @Test
  void partitionsPerTopic() {
    Recording recording = shape.recording();
    recording.topics.forEach(topic -> assertEquals(4, topic.partitions(), topic.name()));
    for (Consumer consumer : recording.consumers) {
      long[] perPartition = perPartitionOfSubscription(recording, consumer);
      assertEquals(4, perPartition.length);
      for (long count : perPartition) {
        assertTrue(count > 0, consumer.subscription() + ": " + Arrays.toString(perPartition));
      }
    }
  }

  // ---- keyDistributor ----

  /**
   * OMB's KEY_ROUND_ROBIN cycles through 10,000 keys of 7 random bytes in base64url: consecutive
   * messages carry different keys, so keyed traffic spreads evenly over the partitions.
   */
  @Test
  void keyDistributorKeyRoundRobin() {
    KeyChooser keys = new KeyChooser(KeyDistributorType.KEY_ROUND_ROBIN, 42);
    List<String> first = next(keys, KeyChooser.KEY_COUNT);
    assertEquals(10_000, new HashSet<>(first).size(), "10,000 distinct keys");
    first.forEach(key -> assertTrue(key.matches(BASE64URL_10), key));
    assertEquals(first, next(keys, 10_000), "then the same keys in the same order");

    // In the run: each producer's keys, fewer than 10,000, never repeat.
    for (Producer producer : shape.recording().producers) {
      List<String> sent = keys(producer);
      assertTrue(sent.size() > 500 && sent.size() < 10_000, "sent " + sent.size());
      sent.forEach(key -> assertTrue(key != null && key.matches(BASE64URL_10), key));
      assertEquals(sent.size(), new HashSet<>(sent).size(), "keys repeat before 10,000");
    }
    // Each partition receives about a quarter of every subscription's messages.
    for (Consumer consumer : shape.recording().consumers) {
      long[] perPartition = perPartitionOfSubscription(shape.recording(), consumer);
      long total = Arrays.stream(perPartition).sum();
      for (long count : perPartition) {
        assertEquals(0.25, (double) count / total, 0.1, Arrays.toString(perPartition));
      }
    }
  }

  /** OMB's NO_KEY sends every message without a key (OMB's {@code Optional.empty()}). */
  @Test
  void keyDistributorNoKey() throws IOException {
    next(new KeyChooser(KeyDistributorType.NO_KEY, 42), 1_000).forEach(key -> assertNull(key));
    Run run = run(dir, keyed("NO_KEY"), Duration.ofMillis(500));
    for (Producer producer : run.recording().producers) {
      assertTrue(producer.sent().size() > 100);
      keys(producer).forEach(key -> assertNull(key));
    }
  }

  /** OMB's RANDOM_NANO picks a key of the same fixed set at random (OMB: by the clock). */
  @Test
  void keyDistributorRandomNano() throws IOException {
    Set<String> set =
        new HashSet<>(next(new KeyChooser(KeyDistributorType.KEY_ROUND_ROBIN, 7), 10_000));
    List<String> picked = next(new KeyChooser(KeyDistributorType.RANDOM_NANO, 7), 10_000);
    picked.forEach(key -> assertTrue(set.contains(key), key));
    assertTrue(new HashSet<>(picked).size() > 10, "by the clock: " + new HashSet<>(picked).size());

    Run run = run(dir, keyed("RANDOM_NANO"), Duration.ofMillis(500));
    for (Producer producer : run.recording().producers) {
      List<String> sent = keys(producer);
      sent.forEach(key -> assertTrue(key != null && key.matches(BASE64URL_10), key));
      int distinct = new HashSet<>(sent).size();
      assertTrue(distinct > 10 && distinct <= 10_000, "distinct keys: " + distinct);
    }
  }

  /**
   * RANDOM_NANO spreads keys, and so partitions, evenly whatever the rate. At 100,000 msg/s a
   * producer's sends are due every 10 us, a whole number of the clock's 10,000-key cycle, so the
   * clock's low digits at each on-time send barely move and pick a few keys over and over.
   */
  @Test
  void keyDistributorRandomNanoSpreadsAtRoundRates() throws IOException {
    Run run =
        run(
            dir,
            keyed("RANDOM_NANO")
                .replace("partitionsPerTopic: 4", "partitionsPerTopic: 16")
                .replace("producerRate: 2000", "producerRate: 100000"),
            Duration.ofMillis(500));
    for (Consumer consumer : run.recording().consumers) {
      long[] perPartition = perPartitionOfSubscription(run.recording(), consumer);
      long total = Arrays.stream(perPartition).sum();
      assertTrue(total > 20_000, "received " + total);
      for (long count : perPartition) {
        assertEquals(1.0 / 16, (double) count / total, 0.02, Arrays.toString(perPartition));
      }
    }
  }

  // ---- messageSize and payloads ----

  /** OMB: every message handed to the driver has exactly this many bytes. */
  @Test
  void messageSize() {
    for (Producer producer : shape.recording().producers) {
      producer.sent().forEach(sent -> assertEquals(200, sent.payload().length));
    }
    PeriodStats measured = shape.report().measured();
    assertEquals(measured.sent() * 200, measured.sentBytes());
    assertEquals(measured.received() * 200, measured.receivedBytes());
  }

  /**
   * OMB: each message is one of the pooled payloads, picked at random per message (Plumb writes its
   * 26-byte header over the start of each; the rest is the pooled body).
   */
  @Test
  void useRandomizedPayloads() {
    assertEquals(8, Payloads.forWorkload(shape.workload(), 1).size());
    Map<ByteBuffer, Integer> uses = new HashMap<>();
    int messages = 0;
    for (Producer producer : shape.recording().producers) {
      for (Sent sent : producer.sent()) {
        uses.merge(body(sent.payload()), 1, Integer::sum);
        messages++;
      }
    }
    for (int count : uses.values()) {
      // Uniformly: an eighth each.
      assertEquals(1.0 / 8, (double) count / messages, 0.05, uses.values().toString());
    }
  }

  /**
   * OMB: the first {@code (int) (messageSize * randomBytesRatio)} bytes of each pooled payload are
   * random, the rest zeros.
   */
  @Test
  void randomBytesRatio() throws IOException {
    long randomNonZero = 0;
    long randomBytes = 0;
    for (Producer producer : shape.recording().producers) {
      for (Sent sent : producer.sent()) {
        byte[] payload = sent.payload();
        for (int b = 100; b < 200; b++) {
          assertEquals(0, payload[b], "byte " + b + " is past the random half");
        }
        for (int b = MessageHeader.SIZE; b < 100; b++) {
          randomNonZero += payload[b] != 0 ? 1 : 0;
          randomBytes++;
        }
      }
    }
    // A random byte is zero one time in 256.
    assertTrue(randomNonZero > 0.98 * randomBytes, randomNonZero + " of " + randomBytes);

    // 100 * 0.29 is 28.999...: OMB truncates to 28 random bytes.
    List<byte[]> truncated =
        Payloads.forWorkload(
            read(
                SHAPE
                    .replace("messageSize: 200", "messageSize: 100")
                    .replace("randomBytesRatio: 0.5", "randomBytesRatio: 0.29")
                    .replace("randomizedPayloadPoolSize: 8", "randomizedPayloadPoolSize: 64")),
            1);
    boolean lastRandomByteUsed = false;
    for (byte[] body : truncated) {
      for (int b = 28; b < 100; b++) {
        assertEquals(0, body[b], "byte " + b);
      }
      lastRandomByteUsed |= body[27] != 0;
    }
    assertTrue(lastRandomByteUsed, "byte 27 is random");
  }

  /** OMB: this many distinct payloads, every one in use. */
  @Test
  void randomizedPayloadPoolSize() throws IOException {
    Set<ByteBuffer> bodies = new HashSet<>();
    for (Producer producer : shape.recording().producers) {
      producer.sent().forEach(sent -> bodies.add(body(sent.payload())));
    }
    assertEquals(8, bodies.size());
    for (int size : new int[] {1, 1000}) {
      List<byte[]> pool =
          Payloads.forWorkload(
              read(
                  SHAPE.replace(
                      "randomizedPayloadPoolSize: 8", "randomizedPayloadPoolSize: " + size)),
              1);
      assertEquals(size, pool.stream().map(ByteBuffer::wrap).distinct().count());
    }
    // OMB would start and fail its first send (a random pick from an empty pool).
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () ->
                read(
                    SHAPE.replace("randomizedPayloadPoolSize: 8", "randomizedPayloadPoolSize: 0")));
    assertTrue(e.getMessage().contains("randomizedPayloadPoolSize"), e.getMessage());
  }

  /**
   * OMB (without {@code useRandomizedPayloads}): every message is the file's bytes, and the file
   * must hold exactly {@code messageSize} bytes.
   */
  @Test
  void payloadFile() throws IOException {
    byte[] file = new byte[200];
    for (int i = 0; i < file.length; i++) {
      file[i] = (byte) (1 + i % 251);
    }
    Files.createDirectories(dir.resolve("payload"));
    Files.write(dir.resolve("payload/payload-200b.data"), file);
    String fromFile =
        SHAPE
            .replace("useRandomizedPayloads: true\n", "payloadFile: payload/payload-200b.data\n")
            .replace("randomBytesRatio: 0.5\nrandomizedPayloadPoolSize: 8\n", "")
            .replace("testDurationMinutes: 0.025", "testDurationMinutes: 0.01")
            .replace("warmupDurationMinutes: 0.01", "warmupDurationMinutes: 0");
    Run run = run(dir, fromFile, Duration.ofMillis(500));
    int messages = 0;
    for (Producer producer : run.recording().producers) {
      for (Sent sent : producer.sent()) {
        assertEquals(body(file), body(sent.payload()));
        messages++;
      }
    }
    assertTrue(messages > 500, "messages " + messages);

    BadInputException e =
        assertThrows(
            BadInputException.class,
            () -> read(fromFile.replace("messageSize: 200", "messageSize: 100")));
    assertTrue(e.getMessage().contains("holds 200 bytes but messageSize is 100"), e.getMessage());
  }

  // ---- subscriptions, consumers, producers, rate ----

  /** OMB: each topic has this many subscriptions, and each receives every message of its topic. */
  @Test
  void subscriptionsPerTopic() throws IOException {
    Recording recording = shape.recording();
    for (Topic topic : recording.topics) {
      Map<String, Long> received = new HashMap<>();
      for (Consumer consumer : recording.consumers) {
        if (consumer.topic().equals(topic.name())) {
          received.merge(consumer.subscription(), consumer.delivered().total(), Long::sum);
        }
      }
      assertEquals(2, received.size(), received.toString());
      long sent = sentTo(recording, topic.name());
      received.values().forEach(count -> assertEquals(sent, count, topic.name()));
    }
    assertEquals(2 * shape.report().counters().sent(), shape.report().counters().received());
    // 0 runs producers only (OMB creates no consumers).
    Workload producersOnly =
        read(
            SHAPE
                .replace("subscriptionsPerTopic: 2", "subscriptionsPerTopic: 0")
                .replace("consumerPerSubscription: 2", "consumerPerSubscription: 0"));
    assertTrue(RunPlan.of(producersOnly, "t", "run").consumers().isEmpty());
  }

  /**
   * OMB names each topic's subscriptions afresh ({@code sub-000-<random>} per topic), so a driver
   * that knows a subscription by its name alone (Kafka's {@code group.id}) gets one group per topic
   * and subscription, not one group spanning every topic.
   */
  @Test
  void subscriptionNamesAreTheirTopicsOwn() {
    Map<String, Set<String>> topicsOfName = new HashMap<>();
    for (Consumer consumer : shape.recording().consumers) {
      topicsOfName
          .computeIfAbsent(consumer.subscription(), name -> new HashSet<>())
          .add(consumer.topic());
    }
    assertEquals(4, topicsOfName.size(), "2 topics of 2 subscriptions: " + topicsOfName);
    topicsOfName.forEach((name, topics) -> assertEquals(1, topics.size(), name + ": " + topics));
  }

  /** OMB: each subscription has this many consumers, sharing its messages (each to one of them). */
  @Test
  void consumerPerSubscription() {
    Recording recording = shape.recording();
    Map<String, List<Consumer>> bySubscription =
        recording.consumers.stream()
            .collect(Collectors.groupingBy(c -> c.topic() + "/" + c.subscription()));
    assertEquals(4, bySubscription.size());
    for (List<Consumer> consumers : bySubscription.values()) {
      assertEquals(2, consumers.size());
      long total = 0;
      for (Consumer consumer : consumers) {
        assertTrue(consumer.delivered().total() > 0, consumer + " received nothing");
        total += consumer.delivered().total();
      }
      assertEquals(sentTo(recording, consumers.get(0).topic()), total);
    }
    assertEquals(0, shape.report().counters().duplicated());
  }

  /** OMB: each topic has this many producers, sharing the rate evenly. */
  @Test
  void producersPerTopic() {
    Recording recording = shape.recording();
    Map<String, Long> producersByTopic =
        recording.producers.stream()
            .collect(Collectors.groupingBy(Producer::topic, Collectors.counting()));
    assertEquals(Map.of(2L, 2), countValues(producersByTopic));
    long all = recording.producers.stream().mapToLong(p -> p.sent().size()).sum();
    for (Producer producer : recording.producers) {
      assertEquals(0.25, (double) producer.sent().size() / all, 0.03);
    }
  }

  /**
   * OMB: messages per second summed over all producers; 0 asks OMB to find the highest sustainable
   * rate, which Plumb does with a peak search on the command line (SearchCommandTest).
   */
  @Test
  void producerRate() throws IOException {
    assertEquals(4000, shape.report().publishRate(), 400);
    assertEquals(1000, RunPlan.of(shape.workload(), "t", "run").ratePerProducer());
    double measured = shape.phaseSeconds().get(Phase.MEASURE);
    assertEquals(4000, shape.phaseSent().get(Phase.MEASURE) / measured, 400);

    Workload search = read(SHAPE.replace("producerRate: 4000", "producerRate: 0"));
    assertEquals(0, search.producerRate());
    Path driver = Files.writeString(dir.resolve("recording.yaml"), recordingDriver());
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () ->
                new BenchmarkRun(
                        search,
                        driver,
                        new LocalWorker(),
                        RunOptions.defaults(),
                        RunListener.SILENT)
                    .execute());
    assertTrue(e.getMessage().contains("peak search"), e.getMessage());
  }

  // ---- durations ----

  /** OMB: the measured phase lasts this long (Plumb also takes fractions and seconds). */
  @Test
  void testDurationMinutes() throws IOException {
    assertEquals(1.5, shape.phaseSeconds().get(Phase.MEASURE), 0.3);
    assertEquals(1.5, shape.report().measuredSeconds(), 0.3);
    assertEquals(
        Duration.ofMinutes(5),
        read(SHAPE.replace("testDurationMinutes: 0.025", "testDurationMinutes: 5")).testDuration());
  }

  /**
   * OMB: load runs this long before measuring, and what it measured is discarded; 1 minute when
   * absent, none at 0.
   */
  @Test
  void warmupDurationMinutes() throws IOException {
    double warmupSeconds = shape.phaseSeconds().get(Phase.WARM_UP);
    assertEquals(0.6, warmupSeconds, 0.2);
    long warmupSent = shape.phaseSent().get(Phase.WARM_UP);
    // At the workload's rate over the warm-up as it ran, as the measurement is judged: a warm-up
    // whose periods ran long on a busy host sent more than 0.6 s of messages, and rightly.
    assertEquals(4000, warmupSent / warmupSeconds, 1200);
    // Sent, but not measured.
    assertEquals(
        shape.report().counters().sent() - warmupSent, shape.report().measured().sent(), 1);

    assertEquals(
        Duration.ofSeconds(60),
        read(SHAPE.replace("warmupDurationMinutes: 0.01", "warmupDurationMinutes: 1"))
            .warmupDuration());
    assertEquals(
        Duration.ofSeconds(60),
        read(SHAPE.replace("warmupDurationMinutes: 0.01\n", "")).warmupDuration());
    assertEquals(Duration.ZERO, backlog.workload().warmupDuration());
    assertEquals(null, backlog.phaseSeconds().get(Phase.WARM_UP), "no warm-up at 0");
  }

  // ---- backlog ----

  /**
   * OMB: consumers pause until the backlog (messages sent but not received, summed over
   * subscriptions, times messageSize) reaches this many GiB, then resume and drain it; the test
   * duration runs after the drain.
   */
  @Test
  void consumerBacklogSizeGB() throws IOException {
    BacklogOutcome outcome = backlog.run().backlogOutcome().orElseThrow();
    assertTrue(outcome.completed(), outcome.toString());
    // ceil(0.01 * 2^30 / 1024): OMB waits until backlog * messageSize >= GB * 2^30.
    assertEquals(10_486, outcome.targetMessages());
    assertTrue(outcome.backlogAtDrainStart() >= 10_486, outcome.toString());
    // Summed over both subscriptions: half the target sent fills it.
    double sentWhileBuilding = outcome.buildRateMsgPerSec() * outcome.buildSeconds();
    assertTrue(
        sentWhileBuilding >= 10_486 / 2 - 1 && sentWhileBuilding < 10_486,
        "sent while building: " + sentWhileBuilding);
    // OMB measures the build, the drain, then testDurationMinutes.
    assertTrue(
        backlog.report().measuredSeconds()
            >= outcome.buildSeconds() + outcome.drainSeconds() + 0.6 - 0.05,
        backlog.report().measuredSeconds() + " s measured, " + outcome);
    assertEquals(
        1_048_576,
        read(BACKLOG.replace("consumerBacklogSizeGB: 0.01", "consumerBacklogSizeGB: 1"))
            .backlogMessages(),
        "1 GiB of 1 KiB messages");
  }

  /**
   * OMB: the share of the backlog the consumers must drain before the test duration starts: the
   * drain ends once at most {@code max(1000, (1 - ratio) * backlog)} messages remain; 1.0 when
   * absent.
   */
  @Test
  void backlogDrainRatio() throws IOException {
    BacklogOutcome outcome = backlog.run().backlogOutcome().orElseThrow();
    assertEquals((long) (0.75 * 10_486), outcome.drainFloor());
    assertTrue(outcome.completed(), outcome.toString());
    assertEquals(1.0, read(BACKLOG.replace("backlogDrainRatio: 0.25\n", "")).backlogDrainRatio());
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () -> read(BACKLOG.replace("backlogDrainRatio: 0.25", "backlogDrainRatio: 1.5")));
    assertTrue(e.getMessage().contains("backlogDrainRatio"), e.getMessage());
  }

  // ---- helpers ----

  private static Run run(Path dir, String workloadYaml, Duration period) throws IOException {
    Files.createDirectories(dir);
    Path workloadFile = Files.writeString(dir.resolve("workload.yaml"), workloadYaml);
    Path driver = Files.writeString(dir.resolve("recording.yaml"), recordingDriver());
    Workload workload = WorkloadReader.read(workloadFile);
    Map<Phase, Double> seconds = new EnumMap<>(Phase.class);
    Map<Phase, Long> sent = new EnumMap<>(Phase.class);
    RunListener phases =
        new EachPeriod(
            (phase, stats, periodSeconds) -> {
              seconds.merge(phase, periodSeconds, Double::sum);
              sent.merge(phase, stats.sent(), Long::sum);
            });
    BenchmarkRun run =
        new BenchmarkRun(
            workload, driver, new LocalWorker(), RunOptions.defaults().withPeriod(period), phases);
    RunReport report = run.execute();
    assertTrue(report.complete(), report.incompleteReason());
    assertEquals(0, report.counters().lost());
    return new Run(
        workload, report, RecordingLoopbackDriver.recordingOf(driver), run, seconds, sent);
  }

  private static String recordingDriver() {
    return "name: Recording\ndriverClass: " + RecordingLoopbackDriver.class.getName() + "\n";
  }

  /** One topic of four partitions, one producer, 0.6 s at 2,000 msg/s with these keys. */
  private static String keyed(String keyDistributor) {
    return SHAPE
        .replace("topics: 2", "topics: 1")
        .replace("keyDistributor: KEY_ROUND_ROBIN", "keyDistributor: " + keyDistributor)
        .replace("subscriptionsPerTopic: 2", "subscriptionsPerTopic: 1")
        .replace("consumerPerSubscription: 2", "consumerPerSubscription: 1")
        .replace("producersPerTopic: 2", "producersPerTopic: 1")
        .replace("producerRate: 4000", "producerRate: 2000")
        .replace("testDurationMinutes: 0.025", "testDurationMinutes: 0.01")
        .replace("warmupDurationMinutes: 0.01", "warmupDurationMinutes: 0");
  }

  private Workload read(String yaml) throws IOException {
    Path file = dir.resolve("workload-" + Integer.toHexString(yaml.hashCode()) + ".yaml");
    Files.writeString(file, yaml);
    return WorkloadReader.read(file);
  }

  private static List<String> next(KeyChooser keys, int count) {
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(keys.next());
    }
    return out;
  }

  private static List<String> keys(Producer producer) {
    synchronized (producer.sent()) {
      return producer.sent().stream().map(Sent::key).toList();
    }
  }

  /** The bytes past Plumb's header. */
  private static ByteBuffer body(byte[] payload) {
    return ByteBuffer.wrap(payload, MessageHeader.SIZE, payload.length - MessageHeader.SIZE)
        .slice();
  }

  private static long sentTo(Recording recording, String topic) {
    return recording.producers.stream()
        .filter(p -> p.topic().equals(topic))
        .mapToLong(p -> p.sent().size())
        .sum();
  }

  /** Messages each partition delivered to the subscription {@code consumer} belongs to. */
  private static long[] perPartitionOfSubscription(Recording recording, Consumer consumer) {
    long[] perPartition = new long[recording.partitionsOf(consumer.topic())];
    for (Consumer c : recording.consumers) {
      if (c.topic().equals(consumer.topic()) && c.subscription().equals(consumer.subscription())) {
        for (int p = 0; p < perPartition.length; p++) {
          perPartition[p] += c.delivered().onPartition(p);
        }
      }
    }
    return perPartition;
  }

  private static Map<Long, Integer> countValues(Map<String, Long> map) {
    Map<Long, Integer> counts = new HashMap<>();
    map.values().forEach(v -> counts.merge(v, 1, Integer::sum));
    return counts;
  }
}
