package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.util.Arrays;

/**
 * Publishes with core NATS: fire and forget, no acknowledgement exists. A send completes as soon as
 * the client has queued the message for its writer thread, so "completed" means "handed to the
 * client", and any loss shows up as missing messages on the consumer side.
 */
final class CoreNatsProducer implements BenchmarkProducer {

  private final Connection connection;
  private final String[] subjects;
  private int roundRobin;

  CoreNatsProducer(Connection connection, String topic, int partitions) {
    this.connection = connection;
    this.subjects = Subjects.partitions(topic, partitions);
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    Throwable failure = null;
    int partition = SendListener.UNKNOWN_PARTITION;
    try {
      partition = BenchmarkProducer.partitionFor(key, subjects.length, roundRobin++);
      String subject = subjects[partition];
      // jnats keeps the array until its writer thread flushes it; the framework reuses it.
      connection.publish(subject, Arrays.copyOf(payload, payload.length));
    } catch (RuntimeException e) {
      failure = e;
    }
    listener.sendCompleted(token, partition, failure);
  }

  /** The same, with the header in the NATS message header {@value NatsHeader#NAME}. */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    Throwable failure = null;
    int partition = SendListener.UNKNOWN_PARTITION;
    try {
      partition = BenchmarkProducer.partitionFor(key, subjects.length, roundRobin++);
      // The body is kept by jnats as the plain send's is; the headers are copied before publish
      // returns (see NatsHeader#of).
      connection.publish(
          subjects[partition], NatsHeader.of(header), Arrays.copyOf(payload, payload.length));
    } catch (RuntimeException e) {
      failure = e;
    }
    listener.sendCompleted(token, partition, failure);
  }

  @Override
  public void close() {
    // The connection belongs to the driver; nothing per producer to release.
  }
}
