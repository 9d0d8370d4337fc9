package io.plumb.remote;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import io.plumb.input.YamlFields;
import io.plumb.message.MessageHeader;
import io.plumb.worker.SendOnlyProducer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A broker stand-in that misdelivers on purpose, by each load message's sequence number, to every
 * subscription of its topic:
 *
 * <ul>
 *   <li>{@code % 10 == 3}: to two consumers of the subscription, as a broker redelivers after a
 *       rebalance ({@link #REDELIVERED});
 *   <li>{@code % 20 == 11}: twice to the same consumer ({@link #REPEATED});
 *   <li>{@code % 20 == 7}: acknowledged, but delivered to nobody ({@link #DROPPED});
 *   <li>otherwise to one consumer, round robin.
 * </ul>
 *
 * <p>Topics live in a static registry, so the drivers of several workers in one JVM (in-process
 * {@link WorkerServer}s) share them as hosts share a real broker: one subscription's consumers on
 * two workers then receive the same message. Each driver delivers what its own producers send, on a
 * thread of its own, and acknowledges after delivering. Test code only.
 */
public final class RedeliveringDriver implements BenchmarkDriver {
  /** Extra deliveries to a second consumer of the subscription. */
  static final AtomicLong REDELIVERED = new AtomicLong();

  /** Extra deliveries to the consumer that already had the message. */
  static final AtomicLong REPEATED = new AtomicLong();

  /** Messages acknowledged and never delivered, per subscription. */
  static final AtomicLong DROPPED = new AtomicLong();

  private static final Map<String, Map<String, List<MessageListener>>> TOPICS =
      new ConcurrentHashMap<>();

  private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private volatile boolean running = true;
  private Thread broker;

  private record Pending(String topic, byte[] payload, long token, SendListener listener) {}

  static void resetCounts() {
    REDELIVERED.set(0);
    REPEATED.set(0);
    DROPPED.set(0);
  }

  @Override
  public void initialize(DriverConfig config) {
    YamlFields fields = YamlFields.read(config.file());
    fields.string("name");
    fields.string("driverClass");
    fields.rejectUnknownFields();
    broker = DaemonThreads.start("redelivering-broker", this::serve);
  }

  private void serve() {
    try {
      while (running) {
        Pending next = queue.poll(10, TimeUnit.MILLISECONDS);
        if (next != null) {
          deliver(next);
          next.listener().sendCompleted(next.token(), null);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void deliver(Pending message) {
    byte[] payload = message.payload();
    boolean probe = MessageHeader.kind(payload) == MessageHeader.KIND_PROBE;
    long sequence = MessageHeader.sequence(payload);
    for (List<MessageListener> subscription : subscriptions(message.topic()).values()) {
      // A snapshot: a consumer closing at the end of the run must not move the others.
      MessageListener[] consumers = subscription.toArray(new MessageListener[0]);
      if (consumers.length == 0) {
        continue;
      }
      if (probe) {
        consumers[0].received(payload, 0);
        continue;
      }
      MessageListener first = consumers[(int) (sequence % consumers.length)];
      if (sequence % 20 == 7) {
        DROPPED.incrementAndGet();
      } else if (sequence % 10 == 3) {
        first.received(payload, 0);
        consumers[(int) ((sequence + 1) % consumers.length)].received(payload, 0);
        REDELIVERED.incrementAndGet();
      } else if (sequence % 20 == 11) {
        first.received(payload, 0);
        first.received(payload, 0);
        REPEATED.incrementAndGet();
      } else {
        first.received(payload, 0);
      }
    }
  }

  private static Map<String, List<MessageListener>> subscriptions(String topic) {
    return TOPICS.computeIfAbsent(topic, name -> new ConcurrentHashMap<>());
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    subscriptions(topic);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return SendOnlyProducer.completed(
        (key, payload, token, listener) -> {
          // The producer reuses its buffer once send returns.
          queue.add(new Pending(topic, payload.clone(), token, listener));
        });
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    List<MessageListener> consumers =
        subscriptions(topic).computeIfAbsent(subscription, name -> new CopyOnWriteArrayList<>());
    consumers.add(listener);
    return CompletableFuture.completedFuture(() -> consumers.remove(listener));
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    topics.forEach(TOPICS::remove);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    broker.join(5000);
  }
}
