package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.ConfirmationHandler;
import com.rabbitmq.stream.ConfirmationStatus;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.Producer;
import com.rabbitmq.stream.ProducerBuilder;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * Publishes to a topic's partition streams, one client producer per stream; a send completes when
 * the broker confirms (or rejects) the message's publishing id.
 *
 * <p>Closing lets the sends still batching or awaiting a confirm complete for up to {@value
 * #CLOSE_CONFIRM_TIMEOUT_SECONDS} s, then fails the rest: the client's own close forgets their
 * confirmation handlers, which would leave those sends neither acknowledged nor failed.
 */
final class StreamProducer implements BenchmarkProducer {
  private static final long CLOSE_CONFIRM_TIMEOUT_SECONDS = 10;

  private final Producer[] producers;
  private final Partitioner partitioner;
  // Set before close() waits: the completion that empties outstanding then wakes it.
  private volatile boolean closed;
  // Sends not completed yet: what close() waits for, then fails.
  private final Set<Completion> outstanding = ConcurrentHashMap.newKeySet();
  private final Object drained = new Object();

  StreamProducer(Environment environment, String topic, int partitions, RabbitMqStreamConfig c) {
    this.producers = new Producer[partitions];
    this.partitioner = new Partitioner(partitions);
    try {
      for (int p = 0; p < partitions; p++) {
        ProducerBuilder builder =
            environment.producerBuilder().stream(StreamNames.partition(topic, p))
                .batchSize(c.batchSize())
                .batchPublishingDelay(Duration.ofMillis(c.batchPublishingDelayMs()))
                .dynamicBatch(c.dynamicBatch())
                .maxUnconfirmedMessages(c.maxUnconfirmedMessages());
        if (c.subEntrySize() > 1) {
          builder.subEntrySize(c.subEntrySize());
        }
        producers[p] = builder.build();
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    int partition = partitioner.partitionFor(key);
    Completion completion = new Completion(token, partition, listener);
    try {
      Producer producer = producers[partition];
      // The message keeps the array until its batch is encoded, after send() returns: copy.
      producer.send(producer.messageBuilder().addData(payload.clone()).build(), completion);
    } catch (RuntimeException | Error e) {
      // Named, so that a refusal on the sending thread opens its partition's unavailability as a
      // refused confirmation does.
      completion.complete(e);
    }
  }

  /**
   * The header travels as the application property {@value StreamHeader#NAME}; both arrays are
   * copied into the message (see {@link StreamHeader#message}).
   */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    int partition = partitioner.partitionFor(key);
    Completion completion = new Completion(token, partition, listener);
    try {
      Producer producer = producers[partition];
      producer.send(StreamHeader.message(producer.messageBuilder(), header, payload), completion);
    } catch (RuntimeException | Error e) {
      // Named, so that a refusal on the sending thread opens its partition's unavailability as a
      // refused confirmation does.
      completion.complete(e);
    }
  }

  /**
   * Completes one send once: when the broker confirms or rejects its publishing id, when the client
   * refuses it, or when close() gives up on it, whichever comes first.
   */
  private final class Completion implements ConfirmationHandler {
    private static final AtomicIntegerFieldUpdater<Completion> DONE =
        AtomicIntegerFieldUpdater.newUpdater(Completion.class, "done");

    private final long token;
    private final int partition;
    private final SendListener listener;
    private volatile int done;

    Completion(long token, int partition, SendListener listener) {
      this.token = token;
      this.partition = partition;
      this.listener = listener;
      outstanding.add(this);
    }

    @Override
    public void handle(ConfirmationStatus status) {
      complete(
          status.isConfirmed()
              ? null
              : new IOException("stream publish failed with code " + status.getCode()));
    }

    void complete(Throwable failure) {
      if (!DONE.compareAndSet(this, 0, 1)) {
        return;
      }
      outstanding.remove(this);
      listener.sendCompleted(token, partition, failure);
      if (closed && outstanding.isEmpty()) {
        synchronized (drained) {
          drained.notifyAll();
        }
      }
    }
  }

  @Override
  public synchronized void close() {
    // Closed by the framework, then again by the driver's close: the second time does nothing.
    if (closed) {
      return;
    }
    closed = true;
    awaitOutstanding();
    for (Completion completion : outstanding) {
      completion.complete(new IOException("producer closed before the broker confirmed"));
    }
    for (Producer producer : producers) {
      if (producer != null) {
        producer.close();
      }
    }
  }

  /** Waits, bounded, until every send taken has completed. */
  private void awaitOutstanding() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_CONFIRM_TIMEOUT_SECONDS);
    synchronized (drained) {
      long left;
      while (!outstanding.isEmpty() && (left = deadline - System.nanoTime()) > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(drained, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
