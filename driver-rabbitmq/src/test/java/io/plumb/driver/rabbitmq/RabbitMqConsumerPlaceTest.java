package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.testkit.DriverRoundTrip;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An AMQP consumer keeps its place, each message received once:
 *
 * <ul>
 *   <li>through a pause, on the broker's side: a paused consumer has cancelled its partition
 *       queues' consumers, a connection recovered while paused does not consume again, the queues
 *       keep what is published meanwhile (a non-durable classic queue too), and resume delivers it
 *       all;
 *   <li>through a lost connection of a stream queue's consumer: the client's recovery must not
 *       consume again from the {@code x-stream-offset} the consumer first asked for ("first"),
 *       which would deliver the whole stream a second time and count every message received before
 *       the loss as a duplicate (with its end-to-end latency as long as the run so far).
 * </ul>
 */
class RabbitMqConsumerPlaceTest {
  private static final int PARTITIONS = 3;
  private static final int BATCH = 300;

  @BeforeAll
  static void brokerRunning() {
    Broker.requireReachable(5672, ManagementApi.PORT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"rabbitmq.yaml", "rabbitmq-quorum.yaml"})
  void pausedConsumerStaysCancelledThroughARecoveryAndResumesWhereItStopped(String file)
      throws Exception {
    RabbitMqBenchmarkDriver driver = Broker.open(file, Map.of());
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(RabbitMqConfig.DEFAULT_URI);
    String topic = DriverRoundTrip.newTopicName("plumb-test-pause");
    try (Connection admin = factory.newConnection("plumb-test-admin")) {
      DistinctMessages.Flow flow = DistinctMessages.start(driver, topic, PARTITIONS, BATCH);
      BenchmarkConsumer consumer = flow.consumer();
      BenchmarkProducer producer = flow.producer();
      DistinctMessages messages = flow.messages();

      consumer.pause();
      // Pause returns at once; the broker lists no consumer on any partition queue soon after.
      awaitQueues(admin, topic, depths -> depths.consumers() == 0, "no consumers");
      assertEquals(BATCH, messages.distinct(), "delivered before the pause took effect");

      // A lost connection while paused: the client's recovery must not consume again.
      DistinctMessages.loseConnection(consumer, topic);

      DistinctMessages.send(producer, BATCH, BATCH);
      // Everything published while paused waits in the queues, with nobody consuming them.
      Depths waiting = awaitQueues(admin, topic, d -> d.ready() == BATCH, BATCH + " ready");
      assertEquals(0, waiting.consumers(), waiting.toString());
      assertEquals(BATCH, messages.distinct(), "delivered while paused");

      consumer.resume();
      messages.awaitDistinct(2 * BATCH);
      awaitQueues(admin, topic, d -> d.ready() == 0 && d.consumers() == PARTITIONS, "drained");
      producer.close();
      consumer.close();
      assertEquals(0, messages.repeated(), "messages received more than once");
      assertEquals(null, messages.consumerFailure());
    } finally {
      try (driver) {
        driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aStreamQueueConsumerResumesAfterTheLastOffsetDeliveredWhenItsConnectionIsRecovered()
      throws Exception {
    RabbitMqBenchmarkDriver driver = Broker.open("rabbitmq-stream.yaml", Map.of());
    String topic = DriverRoundTrip.newTopicName("plumb-test-stream-recovery");
    try {
      DistinctMessages.Flow flow = DistinctMessages.start(driver, topic, PARTITIONS, BATCH);
      BenchmarkConsumer consumer = flow.consumer();
      BenchmarkProducer producer = flow.producer();
      DistinctMessages messages = flow.messages();

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

  /** Messages ready and consumers, summed over the subscription's partition queues. */
  private record Depths(long ready, long consumers) {}

  /**
   * Reads the partition queues' depths and consumer counts (a passive declare: the queue's own
   * figures, not the management API's periodic statistics) until {@code condition} holds.
   */
  private static Depths awaitQueues(
      Connection admin, String topic, java.util.function.Predicate<Depths> condition, String what)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Depths depths;
    try (Channel channel = admin.createChannel()) {
      while (true) {
        long ready = 0;
        long consumers = 0;
        for (int p = 0; p < PARTITIONS; p++) {
          AMQP.Queue.DeclareOk ok =
              channel.queueDeclarePassive(RoutingKeys.queueName(topic, "sub", p));
          ready += ok.getMessageCount();
          consumers += ok.getConsumerCount();
        }
        depths = new Depths(ready, consumers);
        if (condition.test(depths)) {
          return depths;
        }
        if (System.nanoTime() > deadline) {
          fail("queues of " + topic + " not " + what + " in 30 s: " + depths);
        }
        TimeUnit.MILLISECONDS.sleep(50);
      }
    }
  }
}
