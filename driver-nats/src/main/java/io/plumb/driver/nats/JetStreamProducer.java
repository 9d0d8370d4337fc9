package io.plumb.driver.nats;

import io.nats.client.JetStream;
import io.nats.client.api.PublishAck;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Publishes to a JetStream stream asynchronously: each message's publish ack (the stream stored it,
 * per its storage and replicas) completes its send. At most {@code maxOutstanding} publishes await
 * their ack; past that send() waits for one, which the framework sees as send delay rather than as
 * an unbounded queue inside the client.
 *
 * <p>Every send completes exactly once: with its ack, with the server's error (for example 503 no
 * responders while the stream has no leader), when jnats gives up waiting for the ack (its request
 * timeout), or, for publishes awaiting their ack when the connection to the server is lost, at once
 * through {@link #failSentBy}: their acks can no longer arrive on that connection, and jnats itself
 * would only fail them at its timeout.
 */
final class JetStreamProducer implements BenchmarkProducer {

  private final JetStream jetStream;
  private final String[] subjects;
  private final Semaphore outstanding;
  private final AwaitingAcks awaiting = new AwaitingAcks();
  private final Consumer<JetStreamProducer> onClose;
  private int roundRobin;

  /**
   * @param onClose told when the producer closes (the driver stops telling it of lost connections)
   */
  JetStreamProducer(
      JetStream jetStream,
      String topic,
      int partitions,
      int maxOutstanding,
      Consumer<JetStreamProducer> onClose) {
    this.jetStream = jetStream;
    this.onClose = onClose;
    this.subjects = Subjects.partitions(topic, partitions);
    this.outstanding = new Semaphore(maxOutstanding);
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    outstanding.acquireUninterruptibly();
    // Chosen before anything can fail: a send jnats refuses at once still names its partition.
    int partition = BenchmarkProducer.partitionFor(key, subjects.length, roundRobin++);
    try {
      String subject = subjects[partition];
      // jnats keeps the array until its writer thread flushes it; the framework reuses it.
      CompletableFuture<PublishAck> ack =
          jetStream.publishAsync(subject, Arrays.copyOf(payload, payload.length));
      completeOnAck(ack, partition, token, listener);
    } catch (RuntimeException e) {
      outstanding.release();
      listener.sendCompleted(token, partition, e);
    }
  }

  /**
   * The same, with the header in the NATS message header {@value NatsHeader#NAME}, which the stream
   * stores with the message.
   */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    outstanding.acquireUninterruptibly();
    int partition = BenchmarkProducer.partitionFor(key, subjects.length, roundRobin++);
    try {
      // The body is kept by jnats as the plain send's is; the headers are copied before
      // publishAsync returns (see NatsHeader#of).
      CompletableFuture<PublishAck> ack =
          jetStream.publishAsync(
              subjects[partition], NatsHeader.of(header), Arrays.copyOf(payload, payload.length));
      completeOnAck(ack, partition, token, listener);
    } catch (RuntimeException e) {
      outstanding.release();
      listener.sendCompleted(token, partition, e);
    }
  }

  /** Completes the send when {@code ack} does (see {@link #failSentBy}). */
  private void completeOnAck(
      CompletableFuture<PublishAck> ack, int partition, long token, SendListener listener) {
    long key = awaiting.add(ack, System.currentTimeMillis());
    // A future completes once: whichever of the ack, its failure or failSentBy comes first
    // completes the send, and the others are ignored.
    ack.whenComplete(
        (done, failure) -> {
          awaiting.remove(key);
          outstanding.release();
          listener.sendCompleted(token, partition, unwrap(failure));
        });
  }

  /**
   * Fails every publish sent by {@code lostAtMillis} that still awaits its ack: the connection they
   * were sent on is gone (see {@link AwaitingAcks}). A message among them may still have been
   * stored (its ack lost with the connection); the run counts it as failed, and sees it arrive.
   */
  void failSentBy(long lostAtMillis, Throwable cause) {
    awaiting.failSentBy(lostAtMillis, cause);
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  @Override
  public void close() {
    // The connection belongs to the driver; outstanding acks still complete their sends.
    onClose.accept(this);
  }
}
