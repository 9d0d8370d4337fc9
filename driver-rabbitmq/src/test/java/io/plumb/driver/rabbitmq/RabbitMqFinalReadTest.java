package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.plumb.coordinator.FinalReadProbe;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.NoFinalRead;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The AMQP driver's final read against the local broker (deploy/local/rabbitmq.sh start). */
class RabbitMqFinalReadTest {

  private static final int PARTITIONS = 3;
  private static final int PRODUCERS = 2;
  private static final int PER_PRODUCER = 400;

  @BeforeAll
  static void brokerRunning() {
    Broker.requireReachable(5672);
  }

  /**
   * A consumer takes exactly the first half (it is closed once it has all of it), the second half
   * is sent after; the read must take the rest, as deep as the broker says each queue is.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"rabbitmq-durable.yaml", "rabbitmq-quorum.yaml"})
  void readsWhatTheConsumersLeftUpToEachQueuesDepth(String file) throws Exception {
    String topic = DriverRoundTrip.newTopicName("plumb-final");
    String subscription = "sub";
    int half = PER_PRODUCER / 2;
    try (RabbitMqBenchmarkDriver driver = Broker.open(file, Map.of())) {
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      FinalReadProbe.Collected consumed = new FinalReadProbe.Collected();
      BenchmarkConsumer consumer =
          driver.createConsumer(topic, subscription, consumed).get(30, TimeUnit.SECONDS);
      FinalReadProbe.produce(driver, topic, PRODUCERS, 0, half);
      long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (consumed.count.get() < PRODUCERS * half && System.nanoTime() < waitUntil) {
        Thread.sleep(20);
      }
      consumer.close();
      assertEquals(PRODUCERS * half, consumed.count.get(), "the consumer took the first half");
      FinalReadProbe.produce(driver, topic, PRODUCERS, half, PER_PRODUCER);

      long[] depths = new long[PARTITIONS];
      ConnectionFactory factory = new ConnectionFactory();
      try (Connection admin = factory.newConnection();
          Channel channel = admin.createChannel()) {
        for (int p = 0; p < PARTITIONS; p++) {
          depths[p] =
              channel
                  .queueDeclarePassive(RoutingKeys.queueName(topic, subscription, p))
                  .getMessageCount();
        }
      }

      FinalReadProbe.Collected read = new FinalReadProbe.Collected();
      String end = driver.readToEnd(topic, subscription, read, Duration.ofSeconds(60));

      FinalReadProbe.assertExactlyOnce(PRODUCERS, PER_PRODUCER, consumed, read);
      assertEquals(QueueFinalRead.describe(depths), end, "the depths the broker reported");
      assertEquals(java.util.Arrays.stream(depths).sum(), read.count.get(), "read as many as deep");
      assertEquals(PRODUCERS * (PER_PRODUCER - half), read.count.get());
      assertEquals(Set.of(0, 1, 2), read.partitions, "partitions as consumers number them");
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void streamQueuesOverAmqpSayTheyCannotBeReadToTheirEnd() throws Exception {
    try (RabbitMqBenchmarkDriver driver = Broker.open("rabbitmq-stream.yaml", Map.of())) {
      NoFinalRead.assertRefused(driver, "RabbitMQ reports no stream queue's end over AMQP 0.9.1");
    }
    for (String file : List.of("rabbitmq.yaml", "rabbitmq-durable.yaml", "rabbitmq-quorum.yaml")) {
      try (RabbitMqBenchmarkDriver driver = Broker.open(file, Map.of())) {
        assertTrue(driver.whyNoFinalRead().isEmpty(), file + " keeps its queues readable");
      }
    }
  }

  /**
   * Logs: nothing consumed, the read takes every message of every partition stream, and the last
   * offsets it reports are those of the messages it found there.
   */
  @Test
  void streamProtocolReadsEveryStreamToItsLastOffset() throws Exception {
    Broker.requireReachable(5552);
    String topic = DriverRoundTrip.newTopicName("plumb-final-stream");
    try (RabbitMqStreamBenchmarkDriver driver =
        Broker.openStream("rabbitmq-stream-protocol.yaml", Map.of())) {
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      FinalReadProbe.produce(driver, topic, PRODUCERS, PER_PRODUCER);

      FinalReadProbe.Collected read = new FinalReadProbe.Collected();
      String end = driver.readToEnd(topic, "sub", read, Duration.ofSeconds(60));

      read.assertExactly(PRODUCERS, PER_PRODUCER);
      assertEquals(Set.of(0, 1, 2), read.partitions, "partitions as consumers number them");
      long[] lastOffsets = new long[PARTITIONS];
      for (int p = 0; p < PARTITIONS; p++) {
        lastOffsets[p] = read.perPartition(p) - 1;
      }
      assertEquals(StreamFinalRead.describe(lastOffsets), end);
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }
}
