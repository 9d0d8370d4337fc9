package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.testkit.DriverFiles;
import io.plumb.testkit.DriverRoundTrip;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A stream queue read over AMQP keeps its place through a lost connection: the client's recovery
 * must not consume again from the {@code x-stream-offset} the consumer first asked for ("first"),
 * which would deliver the whole stream a second time and count every message received before the
 * loss as a duplicate (with its end-to-end latency as long as the run so far).
 */
class RabbitMqStreamQueueRecoveryTest {
  private static final int PARTITIONS = 2;
  private static final int BATCH = 200;

  @BeforeAll
  static void brokerRunning() {
    Broker.requireReachable(5672, ManagementApi.PORT);
  }

  @Test
  void aRecoveredConnectionResumesAfterTheLastOffsetDelivered() throws Exception {
    RabbitMqBenchmarkDriver driver =
        DriverFiles.open(RabbitMqBenchmarkDriver::new, Path.of("rabbitmq-stream.yaml"), Map.of());
    String topic = DriverRoundTrip.newTopicName("plumb-test-stream-recovery");
    try {
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      DistinctMessages messages = new DistinctMessages();
      BenchmarkConsumer consumer =
          driver.createConsumer(topic, "sub", messages.listener()).get(30, TimeUnit.SECONDS);
      BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);

      DistinctMessages.send(producer, 0, BATCH);
      messages.awaitDistinct(BATCH);

      DistinctMessages.loseConnection(consumer, topic);

      DistinctMessages.send(producer, BATCH, BATCH);
      // Each partition delivers in offset order: once the second batch is in, a replay from the
      // first offset has delivered the first batch again before it.
      messages.awaitDistinct(2 * BATCH);
      producer.close();
      consumer.close();
      assertEquals(0, messages.repeated(), "messages received more than once");
    } finally {
      try (driver) {
        driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
      }
    }
  }
}
