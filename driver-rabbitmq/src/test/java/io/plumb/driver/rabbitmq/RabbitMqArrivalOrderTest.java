package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.plumb.load.WorkerClock;
import io.plumb.message.MessageHeader;
import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.StatsCollector;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DeliveryListener;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Order is judged per consumer in the order messages arrive, on a real broker. RabbitMQ keeps one
 * queue's order for one publisher and one consumer, while amqp-client hands a channel's deliveries
 * to its consumer pool (two threads per core, one at a time per channel but not always the same
 * one): judged in the order the statistics thread drained the pool threads' rings, such a run
 * counted thousands of false reorderings. A requeue, which really reorders, is still counted.
 */
class RabbitMqArrivalOrderTest {
  private static final int RUN = 7;

  @TempDir Path scratch;

  @BeforeAll
  static void brokerRunning() {
    Broker.requireReachable(5672);
  }

  /** One producer, one queue, one consumer, 4,000 msg/s for 3 s through the whole engine. */
  @ParameterizedTest
  @ValueSource(strings = {"rabbitmq-quorum.yaml", "rabbitmq-stream.yaml"})
  void oneConsumerOfOneQueueReceivesInOrder(String file) {
    SmokeRun run = new SmokeRun(1, 1, 1, 1, 4_000, Duration.ofSeconds(3), 256);
    RunReport report = run.run(Path.of(file), Map.of(), scratch);

    assertEquals(List.of(), run.deliveryProblems(report));
    assertTrue(report.counters().received() > 6_000, report.counters().toString());
    assertEquals(0, report.counters().outOfOrder(), report.counters().toString());
  }

  /**
   * A quorum queue filled first, then read with a window of 200: the consumer sends back message
   * 100 unread (basic.nack with requeue), so it reaches the listener again only after the ones
   * already on their way, at least 101 to 199. Exactly one message arrives after a later one.
   */
  @Test
  void aRequeuedMessageArrivingAfterLaterOnesIsCountedOutOfOrder() throws Exception {
    int messages = 2_000;
    long requeued = 100;
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(Broker.HOST);
    factory.setPort(5672);
    String queue = "plumb-requeue-" + Long.toHexString(System.nanoTime());
    try (Connection connection = factory.newConnection("arrival-order-test");
        StatsCollector stats = new StatsCollector("test-stats")) {
      Channel publisher = connection.createChannel();
      publisher.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum"));
      publisher.confirmSelect();
      for (int sequence = 0; sequence < messages; sequence++) {
        byte[] payload = new byte[64];
        MessageHeader.write(payload, MessageHeader.KIND_LOAD, RUN, 0, sequence, System.nanoTime());
        publisher.basicPublish("", queue, null, payload);
      }
      publisher.waitForConfirmsOrDie(30_000);

      int subscription = stats.addSubscription(queue, "s", 0);
      DeliveryListener listener = new DeliveryListener(subscription, RUN, stats, new WorkerClock());
      Set<Long> seen = ConcurrentHashMap.newKeySet();
      CountDownLatch everyOne = new CountDownLatch(messages);
      AtomicBoolean sentBack = new AtomicBoolean();
      Channel channel = connection.createChannel();
      channel.basicQos(200);
      channel.basicConsume(
          queue,
          false,
          new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(
                String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                throws IOException {
              long sequence = MessageHeader.sequence(body);
              if (sequence == requeued && sentBack.compareAndSet(false, true)) {
                channel.basicNack(envelope.getDeliveryTag(), false, true);
                return;
              }
              listener.received(body, 0);
              channel.basicAck(envelope.getDeliveryTag(), false);
              if (seen.add(sequence)) {
                everyOne.countDown();
              }
            }
          });
      assertTrue(everyOne.await(60, TimeUnit.SECONDS), "received " + seen.size());

      PeriodStats.Builder builder = new PeriodStats.Builder();
      stats.takePeriod(builder);
      PeriodStats period = builder.build();
      assertEquals(messages, period.received());
      assertEquals(0, period.duplicates());
      assertEquals(1, period.outOfOrder());
      publisher.queueDelete(queue);
    }
  }
}
