package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.ConfirmationHandler;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.Producer;
import com.rabbitmq.stream.ProducerBuilder;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.io.IOException;
import java.time.Duration;

/**
 * Publishes to a topic's partition streams, one client producer per stream; a send completes when
 * the broker confirms (or rejects) the message's publishing id.
 */
final class StreamProducer implements BenchmarkProducer {
  private final Producer[] producers;
  private final Partitioner partitioner;
  private boolean closed;

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
    try {
      Producer producer = producers[partition];
      // The message keeps the array until its batch is encoded, after send() returns: copy.
      producer.send(
          producer.messageBuilder().addData(payload.clone()).build(),
          confirmation(token, partition, listener));
    } catch (RuntimeException | Error e) {
      // Named, so that a refusal on the sending thread opens its partition's unavailability as a
      // refused confirmation does.
      listener.sendCompleted(token, partition, e);
    }
  }

  /**
   * The header travels as the application property {@value StreamHeader#NAME}; both arrays are
   * copied into the message (see {@link StreamHeader#message}).
   */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    int partition = partitioner.partitionFor(key);
    try {
      Producer producer = producers[partition];
      producer.send(
          StreamHeader.message(producer.messageBuilder(), header, payload),
          confirmation(token, partition, listener));
    } catch (RuntimeException | Error e) {
      // Named, so that a refusal on the sending thread opens its partition's unavailability as a
      // refused confirmation does.
      listener.sendCompleted(token, partition, e);
    }
  }

  /** Completes the send when the broker confirms or rejects its publishing id. */
  private static ConfirmationHandler confirmation(
      long token, int partition, SendListener listener) {
    return status ->
        listener.sendCompleted(
            token,
            partition,
            status.isConfirmed()
                ? null
                : new IOException("stream publish failed with code " + status.getCode()));
  }

  @Override
  public synchronized void close() {
    // Closed by the framework, then again by the driver's close: the second time does nothing.
    if (closed) {
      return;
    }
    closed = true;
    for (Producer producer : producers) {
      if (producer != null) {
        producer.close();
      }
    }
  }
}
