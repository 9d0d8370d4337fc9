package io.plumb.driver.pulsar;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.util.concurrent.CompletableFuture;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.MessageIdAdv;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.TypedMessageBuilder;

/**
 * Sends to one (partitioned) topic; a send completes when the broker acknowledges the message or
 * the client gives up on it.
 */
final class PulsarProducer implements BenchmarkProducer {
  private final Producer<byte[]> producer;
  private final RememberingRouter router;

  /**
   * @param router the producer's router: the partition of a send that fails, which its message ID
   *     would name had it been acknowledged
   */
  PulsarProducer(Producer<byte[]> producer, RememberingRouter router) {
    this.producer = producer;
    this.router = router;
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    send(key, null, payload, token, listener);
  }

  /**
   * The header, when not null, travels as the message property {@value PulsarHeader#NAME} and the
   * payload as the body; a null header is the plain send.
   */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    try {
      // The client wraps the array and encodes it later, in a batch: copy. The property's value is
      // a new string already.
      TypedMessageBuilder<byte[]> message = producer.newMessage().value(payload.clone());
      if (header != null) {
        message.property(PulsarHeader.NAME, PulsarHeader.encode(header));
      }
      if (key != null) {
        message.key(key);
      }
      CompletableFuture<MessageId> sent = message.sendAsync();
      // Routed inside sendAsync: read before a failure that completed it there is reported.
      int routed = router.takeChosen();
      sent.whenComplete(
          (id, failure) ->
              listener.sendCompleted(token, id == null ? routed : partitionOf(id), failure));
    } catch (RuntimeException | Error e) {
      listener.sendCompleted(token, router.takeChosen(), e);
    }
  }

  /**
   * The partition index of a partitioned topic's message ID, numbered as {@link
   * PulsarConsumer#partitionOf} numbers them (a topic without partitions has none).
   */
  static int partitionOf(MessageId id) {
    return id instanceof MessageIdAdv advanced && advanced.getPartitionIndex() >= 0
        ? advanced.getPartitionIndex()
        : SendListener.UNKNOWN_PARTITION;
  }

  @Override
  public void close() throws Exception {
    producer.close();
  }
}
