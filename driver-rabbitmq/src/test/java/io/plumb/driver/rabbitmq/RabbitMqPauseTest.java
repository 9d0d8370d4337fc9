package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoverableConnection;
import com.rabbitmq.client.RecoveryListener;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import io.plumb.testkit.DriverFiles;
import io.plumb.testkit.DriverRoundTrip;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The AMQP driver's pause on the broker's side: a paused consumer has cancelled its partition
 * queues' consumers, a connection recovered while paused does not consume again, the queues keep
 * what is published meanwhile (a non-durable classic queue too), and resume delivers it all, each
 * message once.
 */
class RabbitMqPauseTest {
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
    RabbitMqBenchmarkDriver driver =
        DriverFiles.open(RabbitMqBenchmarkDriver::new, Path.of(file), Map.of());
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(RabbitMqConfig.DEFAULT_URI);
    String topic = DriverRoundTrip.newTopicName("plumb-test-pause");
    try (Connection admin = factory.newConnection("plumb-test-admin")) {
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      Map<String, Integer> received = new ConcurrentHashMap<>();
      AtomicReference<Throwable> consumerFailure = new AtomicReference<>();
      BenchmarkConsumer consumer =
          driver
              .createConsumer(topic, "sub", counting(received, consumerFailure))
              .get(30, TimeUnit.SECONDS);
      BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);

      send(producer, 0);
      awaitReceived(received, BATCH);

      consumer.pause();
      // Pause returns at once; the broker lists no consumer on any partition queue soon after.
      awaitQueues(admin, topic, depths -> depths.consumers() == 0, "no consumers");
      assertEquals(BATCH, received.size(), "delivered before the pause took effect");

      // A lost connection while paused: the client's recovery must not consume again.
      CountDownLatch recovered = new CountDownLatch(1);
      ((RecoverableConnection) ((AmqpConsumer) consumer).connection())
          .addRecoveryListener(
              new RecoveryListener() {
                @Override
                public void handleRecovery(Recoverable recoverable) {
                  recovered.countDown();
                }

                @Override
                public void handleRecoveryStarted(Recoverable recoverable) {}
              });
      assertEquals(1, Broker.closeConnections("plumb-consumer-" + topic + "-sub", 30));
      assertTrue(recovered.await(30, TimeUnit.SECONDS), "connection not recovered in 30 s");

      send(producer, BATCH);
      // Everything published while paused waits in the queues, with nobody consuming them.
      Depths waiting = awaitQueues(admin, topic, d -> d.ready() == BATCH, BATCH + " ready");
      assertEquals(0, waiting.consumers(), waiting.toString());
      assertEquals(BATCH, received.size(), "delivered while paused");

      consumer.resume();
      awaitReceived(received, 2 * BATCH);
      awaitQueues(admin, topic, d -> d.ready() == 0 && d.consumers() == PARTITIONS, "drained");
      producer.close();
      consumer.close();
      assertEquals(2 * BATCH, received.size());
      received.forEach((text, count) -> assertEquals(1, count, text + " received"));
      assertEquals(null, consumerFailure.get());
    } finally {
      try (driver) {
        driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static MessageListener counting(
      Map<String, Integer> received, AtomicReference<Throwable> failure) {
    return new MessageListener() {
      @Override
      public void received(byte[] payload, int partition) {
        received.merge(new String(payload, StandardCharsets.UTF_8), 1, Integer::sum);
      }

      @Override
      public void failed(Throwable error) {
        failure.compareAndSet(null, error);
      }
    };
  }

  /**
   * Sends {@link #BATCH} distinct messages from {@code first} on and waits for their completion.
   */
  private static void send(BenchmarkProducer producer, int first) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(BATCH);
    AtomicInteger failures = new AtomicInteger();
    SendListener listener =
        (token, failure) -> {
          if (failure != null) {
            failures.incrementAndGet();
          }
          done.countDown();
        };
    for (int i = first; i < first + BATCH; i++) {
      producer.send(null, ("message-" + i).getBytes(StandardCharsets.UTF_8), i, listener);
    }
    assertTrue(done.await(30, TimeUnit.SECONDS), "sends not completed in 30 s");
    assertEquals(0, failures.get(), "failed sends");
  }

  private static void awaitReceived(Map<String, Integer> received, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (received.size() < count && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(20);
    }
    assertEquals(count, received.size(), "distinct messages received");
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
