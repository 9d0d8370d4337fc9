package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.testkit.KeyedMessages;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The final read against the real local broker ({@code deploy/local/kafka.sh start}): messages
 * nobody consumed are all read back, exactly up to the end offsets the broker itself reports, on
 * the partitions the broker holds them in.
 */
class KafkaFinalReadTest {
  private static final String BOOTSTRAP = LocalKafka.BOOTSTRAP;
  private static final int PARTITIONS = 4;
  private static final int MESSAGES = 3_000;
  private static final int KEYS = 40;
  private static final long WAIT_SECONDS = 30;

  // JUnit closes it after the last test; it stays null when no broker answered.
  @AutoClose private static Admin admin;

  @BeforeAll
  static void brokerIsRunning() {
    admin = LocalKafka.admin();
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
      KeyedMessages messages = new KeyedMessages(MESSAGES, KEYS);
      try (BenchmarkProducer producer = driver.createProducer(topic).get()) {
        assertEquals(List.of(), messages.sendAll(producer, Duration.ofSeconds(WAIT_SECONDS)));
      }

      KeyedMessages.Reading read = messages.reading();
      String end = driver.readToEnd(topic, "nobody", read, Duration.ofSeconds(WAIT_SECONDS));

      Map<Integer, Long> brokerEnds = endOffsets(topic);
      long brokerTotal = brokerEnds.values().stream().mapToLong(Long::longValue).sum();
      assertEquals(MESSAGES, brokerTotal, "the broker holds every message once");
      assertEquals(brokerTotal, read.total(), "read exactly the sum of the end offsets");
      assertEquals(List.of(), read.problems(), "each message read once, each key on one partition");
      for (int partition = 0; partition < PARTITIONS; partition++) {
        assertEquals(
            brokerEnds.get(partition),
            read.onPartition(partition),
            "partition " + partition + " read to its end offset");
      }
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
}
