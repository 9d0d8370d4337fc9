package io.plumb.driver.nats;

import io.nats.client.JetStream;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.util.Arrays;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;

/**
 * Publishes to a JetStream stream asynchronously: each message's publish ack (the stream stored it,
 * per its storage and replicas) completes its send. At most {@code maxOutstanding} publishes await
 * their ack; past that send() waits for one, which the framework sees as send delay rather than as
 * an unbounded queue inside the client.
 */
final class JetStreamProducer implements BenchmarkProducer {

  private final JetStream jetStream;
  private final String[] subjects;
  private final Semaphore outstanding;
  private int roundRobin;

  JetStreamProducer(JetStream jetStream, String topic, int partitions, int maxOutstanding) {
    this.jetStream = jetStream;
    this.subjects = new String[partitions];
    for (int p = 0; p < partitions; p++) {
      subjects[p] = Subjects.partition(topic, p);
    }
    this.outstanding = new Semaphore(maxOutstanding);
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    outstanding.acquireUninterruptibly();
    try {
      String subject = subjects[Subjects.choose(key, subjects.length, roundRobin++)];
      // jnats keeps the array until its writer thread flushes it; the framework reuses it.
      jetStream
          .publishAsync(subject, Arrays.copyOf(payload, payload.length))
          .whenComplete(
              (ack, failure) -> {
                outstanding.release();
                listener.sendCompleted(token, unwrap(failure));
              });
    } catch (RuntimeException e) {
      outstanding.release();
      listener.sendCompleted(token, e);
    }
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  @Override
  public void close() {
    // The connection belongs to the driver; outstanding acks still complete their sends.
  }
}
