package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import io.plumb.worker.DriverSettingsReader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The final read against the real local broker ({@code deploy/local/kafka.sh start}): messages
 * nobody consumed are all read back, exactly up to the end offsets the broker itself reports, on
 * the partitions the broker holds them in.
 */
class KafkaFinalReadTest {
  private static final String BOOTSTRAP =
      System.getenv().getOrDefault("PLUMB_KAFKA_BOOTSTRAP", "127.0.0.1:9092");
  private static final int PARTITIONS = 4;
  private static final int MESSAGES = 3_000;
  private static final int KEYS = 40;
  private static final long WAIT_SECONDS = 30;

  private static Admin admin;

  @BeforeAll
  static void brokerIsRunning() {
    admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP));
    try {
      admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      admin.close();
      fail("no Kafka broker at " + BOOTSTRAP + ": start it with deploy/local/kafka.sh start");
    }
  }

  @AfterAll
  static void closeAdmin() {
    if (admin != null) {
      admin.close();
    }
  }

  @Test
  void aTopicNobodyConsumedIsReadBackToTheBrokersEndOffsets() throws Exception {
    String topic = "plumb-test-final-read-" + System.nanoTime();
    DriverConfig config =
        DriverSettingsReader.config(Path.of("kafka.yaml"), Map.of("bootstrap.servers", BOOTSTRAP));
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver()) {
      driver.initialize(config);
      assertTrue(driver.whyNoFinalRead().isEmpty());
      driver.createTopic(topic, PARTITIONS).get(WAIT_SECONDS, TimeUnit.SECONDS);
      CountDownLatch acknowledged = new CountDownLatch(MESSAGES);
      AtomicReference<Throwable> sendFailure = new AtomicReference<>();
      SendListener sends =
          (token, failure) -> {
            if (failure != null) {
              sendFailure.compareAndSet(null, failure);
            }
            acknowledged.countDown();
          };
      try (BenchmarkProducer producer = driver.createProducer(topic).get()) {
        byte[] payload = new byte[64];
        for (int i = 0; i < MESSAGES; i++) {
          ByteBuffer.wrap(payload).putInt(0, i);
          producer.send("key-" + (i % KEYS), payload, i, sends);
        }
        assertTrue(acknowledged.await(WAIT_SECONDS, TimeUnit.SECONDS), "every send completed");
      }
      assertNull(sendFailure.get(), "send failure");

      Read read = new Read();
      String end = driver.readToEnd(topic, "nobody", read, Duration.ofSeconds(WAIT_SECONDS));

      Map<Integer, Long> brokerEnds = endOffsets(topic);
      long brokerTotal = brokerEnds.values().stream().mapToLong(Long::longValue).sum();
      assertEquals(MESSAGES, brokerTotal, "the broker holds every message once");
      assertEquals(brokerTotal, read.total.get(), "read exactly the sum of the end offsets");
      for (int i = 0; i < MESSAGES; i++) {
        assertEquals(1, read.countOf(i), "message " + i + " read once");
      }
      for (int partition = 0; partition < PARTITIONS; partition++) {
        assertEquals(
            brokerEnds.get(partition),
            read.perPartition.getOrDefault(partition, new AtomicInteger()).longValue(),
            "partition " + partition + " read to its end offset");
      }
      assertEquals(0, read.keysOnTwoPartitions.get(), "each key's messages on one partition");
      assertTrue(end.startsWith("end offsets "), end);
      assertTrue(
          end.contains(String.format("= %,d on %d partition(s)", MESSAGES, PARTITIONS)), end);
      driver.deleteTopics(List.of(topic)).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  private static Map<Integer, Long> endOffsets(String topic) throws Exception {
    Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      ask.put(new TopicPartition(topic, partition), OffsetSpec.latest());
    }
    Map<Integer, Long> ends = new HashMap<>();
    admin
        .listOffsets(ask)
        .all()
        .get(WAIT_SECONDS, TimeUnit.SECONDS)
        .forEach((partition, info) -> ends.put(partition.partition(), info.offset()));
    return ends;
  }

  /** Counts each message index read, per partition, and checks each key stays on one. */
  private static final class Read implements MessageListener {
    final AtomicInteger total = new AtomicInteger();
    final Map<Integer, AtomicInteger> perPartition = new ConcurrentHashMap<>();
    final Map<Integer, AtomicInteger> perIndex = new ConcurrentHashMap<>();
    final Map<Integer, Integer> partitionOfKey = new ConcurrentHashMap<>();
    final AtomicInteger keysOnTwoPartitions = new AtomicInteger();

    @Override
    public void received(byte[] payload, int partition) {
      int index = ByteBuffer.wrap(payload).getInt(0);
      total.incrementAndGet();
      perPartition.computeIfAbsent(partition, p -> new AtomicInteger()).incrementAndGet();
      perIndex.computeIfAbsent(index, i -> new AtomicInteger()).incrementAndGet();
      Integer previous = partitionOfKey.putIfAbsent(index % KEYS, partition);
      if (previous != null && previous != partition) {
        keysOnTwoPartitions.incrementAndGet();
      }
    }

    int countOf(int index) {
      AtomicInteger count = perIndex.get(index);
      return count == null ? 0 : count.get();
    }

    @Override
    public void failed(Throwable error) {
      fail(error);
    }
  }
}
