package io.plumb.workload;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.loopback.LoopbackDriver;
import io.plumb.message.MessageHeader;
import io.plumb.worker.ForwardingLoopbackDriver;
import io.plumb.worker.TappedProducer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The loopback driver with a tap: everything passes to a real {@link LoopbackDriver}, and what the
 * framework hands the driver is recorded (topics and their partitions, producers, consumers with
 * their subscriptions, and every load message's key and bytes), so a test can check what a
 * workload's fields turned into at the driver's door. Recordings live in a static registry keyed by
 * the driver file, because the framework instantiates drivers by class name. Test code only.
 */
public final class RecordingLoopbackDriver extends ForwardingLoopbackDriver {
  private static final Map<Path, Recording> RECORDINGS = new ConcurrentHashMap<>();

  private Recording recording;

  /** What the run with driver file {@code driverFile} handed to the driver. */
  static Recording recordingOf(Path driverFile) {
    Recording found = RECORDINGS.get(driverFile.toAbsolutePath().normalize());
    if (found == null) {
      throw new IllegalStateException("no run with driver file " + driverFile);
    }
    return found;
  }

  /** A topic as created. */
  record Topic(String name, int partitions) {}

  /** A consumer as created. */
  record Consumer(String topic, String subscription, Delivered delivered) {}

  /** A producer as created, with the load messages it was asked to send. */
  record Producer(String topic, List<Sent> sent) {}

  /** One load message as the framework handed it to the driver. */
  record Sent(String key, byte[] payload) {}

  /** Load messages one consumer received, per partition. */
  static final class Delivered {
    private final AtomicLongArray perPartition;

    Delivered(int partitions) {
      perPartition = new AtomicLongArray(partitions);
    }

    long total() {
      long sum = 0;
      for (int p = 0; p < perPartition.length(); p++) {
        sum += perPartition.get(p);
      }
      return sum;
    }

    long onPartition(int partition) {
      return perPartition.get(partition);
    }
  }

  /** Everything one run handed the driver. */
  static final class Recording {
    final List<Topic> topics = new CopyOnWriteArrayList<>();
    final List<Producer> producers = new CopyOnWriteArrayList<>();
    final List<Consumer> consumers = new CopyOnWriteArrayList<>();

    int partitionsOf(String topic) {
      return topics.stream()
          .filter(t -> t.name().equals(topic))
          .findFirst()
          .orElseThrow()
          .partitions();
    }
  }

  @Override
  public void initialize(DriverConfig config) throws Exception {
    recording = new Recording();
    RECORDINGS.put(config.file().toAbsolutePath().normalize(), recording);
    loopback.initialize(config);
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    recording.topics.add(new Topic(topic, partitions));
    return loopback.createTopic(topic, partitions);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    List<Sent> sent = Collections.synchronizedList(new ArrayList<>());
    recording.producers.add(new Producer(topic, sent));
    return loopback
        .createProducer(topic)
        .thenApply(
            inner ->
                new TappedProducer(
                    inner,
                    (key, payload) -> {
                      if (MessageHeader.kind(payload) == MessageHeader.KIND_LOAD) {
                        // The framework reuses its array after send() returns.
                        sent.add(new Sent(key, payload.clone()));
                      }
                    }));
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    Delivered delivered = new Delivered(recording.partitionsOf(topic));
    recording.consumers.add(new Consumer(topic, subscription, delivered));
    MessageListener tap =
        new MessageListener() {
          @Override
          public void received(byte[] payload, int partition) {
            if (MessageHeader.kind(payload) == MessageHeader.KIND_LOAD) {
              delivered.perPartition.incrementAndGet(partition);
            }
            listener.received(payload, partition);
          }

          @Override
          public void failed(Throwable error) {
            listener.failed(error);
          }
        };
    return loopback.createConsumer(topic, subscription, tap);
  }

  /** The loopback's facts and one the run only knows once its consumers exist: how many. */
  @Override
  public Map<String, String> brokerFacts() {
    return loopbackFactsWith(
        recording == null
            ? Map.of()
            : Map.of(CONSUMERS_FACT, String.valueOf(recording.consumers.size())));
  }

  /** The fact {@link #brokerFacts} counts the consumers created so far in. */
  static final String CONSUMERS_FACT = "recording.consumers";
}
