package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
      Map<String, Integer> received = new ConcurrentHashMap<>();
      BenchmarkConsumer consumer =
          driver.createConsumer(topic, "sub", counting(received)).get(30, TimeUnit.SECONDS);
      BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);

      send(producer, 0);
      awaitReceived(received, BATCH);

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
      // Each partition delivers in offset order: once the second batch is in, a replay from the
      // first offset has delivered the first batch again before it.
      awaitReceived(received, 2 * BATCH);
      producer.close();
      consumer.close();
      long twice = received.values().stream().filter(count -> count > 1).count();
      assertEquals(0, twice, "messages received more than once");
    } finally {
      try (driver) {
        driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static MessageListener counting(Map<String, Integer> received) {
    return new MessageListener() {
      @Override
      public void received(byte[] payload, int partition) {
        received.merge(new String(payload, StandardCharsets.UTF_8), 1, Integer::sum);
      }

      @Override
      public void failed(Throwable error) {}
    };
  }

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
}
