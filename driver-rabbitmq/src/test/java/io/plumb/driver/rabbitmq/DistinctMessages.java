package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoverableConnection;
import com.rabbitmq.client.RecoveryListener;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Numbered messages with distinct bodies ("message-17"), sent by a driver's producer and counted by
 * body as a consumer receives them: what the pause and recovery tests need to see that a consumer
 * neither skipped nor repeated a message through a pause or a lost connection.
 */
final class DistinctMessages {
  private static final long WAIT_SECONDS = 30;

  private final Map<String, Integer> received = new ConcurrentHashMap<>();
  private final AtomicReference<Throwable> consumerFailure = new AtomicReference<>();

  /** A consumer (of subscription "sub") and a producer on a topic, and what the consumer got. */
  record Flow(BenchmarkConsumer consumer, BenchmarkProducer producer, DistinctMessages messages) {}

  /**
   * Creates {@code topic} with {@code partitions}, a consumer and a producer on it, and sends the
   * first {@code count} messages and waits until each was received once.
   */
  static Flow start(BenchmarkDriver driver, String topic, int partitions, int count)
      throws Exception {
    driver.createTopic(topic, partitions).get(WAIT_SECONDS, TimeUnit.SECONDS);
    DistinctMessages messages = new DistinctMessages();
    BenchmarkConsumer consumer =
        driver
            .createConsumer(topic, "sub", messages.listener())
            .get(WAIT_SECONDS, TimeUnit.SECONDS);
    BenchmarkProducer producer = driver.createProducer(topic).get(WAIT_SECONDS, TimeUnit.SECONDS);
    send(producer, 0, count);
    messages.awaitDistinct(count);
    return new Flow(consumer, producer, messages);
  }

  /** The listener to create the consumer with. */
  MessageListener listener() {
    return new MessageListener() {
      @Override
      public void received(byte[] payload, int partition) {
        received.merge(new String(payload, StandardCharsets.UTF_8), 1, Integer::sum);
      }

      @Override
      public void failed(Throwable error) {
        consumerFailure.compareAndSet(null, error);
      }
    };
  }

  /** Sends messages {@code first} to {@code first + count - 1} and waits until each succeeded. */
  static void send(BenchmarkProducer producer, int first, int count) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(count);
    AtomicInteger failures = new AtomicInteger();
    SendListener listener =
        (token, failure) -> {
          if (failure != null) {
            failures.incrementAndGet();
          }
          done.countDown();
        };
    for (int i = first; i < first + count; i++) {
      producer.send(null, ("message-" + i).getBytes(StandardCharsets.UTF_8), i, listener);
    }
    assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS), "sends not completed in 30 s");
    assertEquals(0, failures.get(), "failed sends");
  }

  /** Waits until {@code count} distinct messages have arrived, and fails if others came. */
  void awaitDistinct(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (received.size() < count && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(20);
    }
    assertEquals(count, received.size(), "distinct messages received");
  }

  /** Distinct messages received so far. */
  int distinct() {
    return received.size();
  }

  /** Messages received more than once. */
  long repeated() {
    return received.values().stream().filter(count -> count > 1).count();
  }

  /** The first error the consumer reported, or null. */
  Throwable consumerFailure() {
    return consumerFailure.get();
  }

  /**
   * Has the broker close the connection of {@code consumer} (of subscription "sub" of {@code
   * topic}) and waits until the client's automatic recovery has opened it again.
   */
  static void loseConnection(BenchmarkConsumer consumer, String topic) throws Exception {
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
    assertTrue(recovered.await(WAIT_SECONDS, TimeUnit.SECONDS), "connection not recovered in 30 s");
  }
}
