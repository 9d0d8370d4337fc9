package io.plumb.testkit;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plain messages numbered 0 to n - 1 (the number in the first four bytes of a 64-byte payload),
 * keyed by their number modulo {@code keys}: for a final read or a consumer that must hand each
 * message back once, on the partition its key chose. A {@link Reading} counts what came back.
 */
public final class KeyedMessages {
  private static final int PAYLOAD_BYTES = 64;

  private final int messages;
  private final int keys;

  /** {@code messages} messages over {@code keys} keys. */
  public KeyedMessages(int messages, int keys) {
    this.messages = messages;
    this.keys = keys;
  }

  /**
   * Sends every message, keyed {@code "key-" + number % keys}, reusing one payload array as the
   * framework does, and waits up to {@code timeout} for each acknowledgement.
   *
   * @return what failed: each send the broker refused, and the acknowledgements still missing
   */
  public List<String> sendAll(BenchmarkProducer producer, Duration timeout)
      throws InterruptedException {
    Acknowledgements done = new Acknowledgements(messages);
    byte[] payload = new byte[PAYLOAD_BYTES];
    for (int i = 0; i < messages; i++) {
      ByteBuffer.wrap(payload).putInt(0, i);
      producer.send("key-" + (i % keys), payload, i, done);
    }
    return done.await(timeout);
  }

  /** A listener that counts what is handed to it, by message and by partition. */
  public Reading reading() {
    return new Reading();
  }

  /**
   * What a final read or a consumer handed over. Called on the driver's threads, so what is wrong
   * is noted for the test's thread to check rather than thrown there.
   */
  public final class Reading implements MessageListener {
    private final AtomicInteger total = new AtomicInteger();
    private final Map<Integer, AtomicInteger> perPartition = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> perMessage = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> partitionOfKey = new ConcurrentHashMap<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();

    private Reading() {}

    @Override
    public void received(byte[] payload, int partition) {
      int number = ByteBuffer.wrap(payload).getInt(0);
      total.incrementAndGet();
      perPartition.computeIfAbsent(partition, p -> new AtomicInteger()).incrementAndGet();
      perMessage.computeIfAbsent(number, n -> new AtomicInteger()).incrementAndGet();
      Integer previous = partitionOfKey.putIfAbsent(number % keys, partition);
      if (previous != null && previous != partition) {
        problems.add("key " + number % keys + " on partitions " + previous + " and " + partition);
      }
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      problems.add("a message handed over with a header apart, though each was sent plain");
    }

    @Override
    public void failed(Throwable error) {
      problems.add("failed: " + error);
    }

    /** Messages handed over, repeats included. */
    public int total() {
      return total.get();
    }

    /** Messages handed over on {@code partition}. */
    public long onPartition(int partition) {
      AtomicInteger count = perPartition.get(partition);
      return count == null ? 0 : count.get();
    }

    /**
     * What did not come back as sent: empty when each message was handed over exactly once and each
     * key's messages all on one partition.
     */
    public List<String> problems() {
      List<String> all = new ArrayList<>(problems);
      int missing = 0;
      int repeated = 0;
      for (int i = 0; i < messages; i++) {
        AtomicInteger count = perMessage.get(i);
        if (count == null) {
          missing++;
        } else if (count.get() > 1) {
          repeated++;
        }
      }
      if (missing > 0) {
        all.add(missing + " of " + messages + " messages never handed over");
      }
      if (repeated > 0) {
        all.add(repeated + " of " + messages + " messages handed over more than once");
      }
      return all;
    }
  }
}
