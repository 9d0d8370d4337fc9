package io.plumb.driver.kafka;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends to one topic through its own {@link KafkaProducer}: producers are never shared, so one
 * benchmark producer's batches and in-flight limit never slow another's.
 */
final class KafkaBenchmarkProducer implements BenchmarkProducer {

  /** How long close() lets in-flight batches finish; the rest fail through their callbacks. */
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  private final KafkaProducer<String, byte[]> producer;
  private final String topic;

  KafkaBenchmarkProducer(KafkaProducer<String, byte[]> producer, String topic) {
    this.producer = producer;
    this.topic = topic;
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    // KafkaProducer.send serializes the payload into its batch before returning, so the
    // framework may reuse the array at once: no copy here.
    Completion completion = new Completion(token, listener);
    try {
      producer.send(new ProducerRecord<>(topic, key, payload), completion);
    } catch (RuntimeException e) {
      completion.onCompletion(null, e);
    }
  }

  /** The header travels as the record header {@value KafkaHeader#NAME}. */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    Completion completion = new Completion(token, listener);
    try {
      producer.send(
          new ProducerRecord<>(topic, null, key, payload, KafkaHeader.of(header)), completion);
    } catch (RuntimeException e) {
      completion.onCompletion(null, e);
    }
  }

  @Override
  public void close() {
    producer.close(CLOSE_TIMEOUT);
  }

  /**
   * Tells the listener once. KafkaProducer normally reports an error either through the callback or
   * by throwing, but an idempotent producer that has already failed fatally can append the record
   * and then throw, and the appended batch later fails through the callback too. One uncontended
   * compare-and-set per message keeps "exactly once" true in that case as well: the completion is
   * itself the flag, so a message still costs one object.
   */
  private static final class Completion extends AtomicBoolean implements Callback {
    private final long token;
    private final SendListener listener;

    Completion(long token, SendListener listener) {
      this.token = token;
      this.listener = listener;
    }

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
      if (compareAndSet(false, true)) {
        // The partition it went to; a failure knows it when the client had chosen one (else -1).
        int partition = metadata == null ? SendListener.UNKNOWN_PARTITION : metadata.partition();
        listener.sendCompleted(token, partition, exception);
      }
    }
  }
}
