package io.plumb.coordinator;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.message.MessageHeader;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * For drivers' tests of {@link io.plumb.driver.FinalReader}: writes messages with the framework's
 * header through a driver's producers and collects what a listener receives, so each driver's test
 * checks its read to the end the same way. Failed checks throw {@link AssertionError}.
 */
public final class FinalReadProbe {

  public static final int RUN_ID = 25;
  public static final int PAYLOAD_SIZE = 100;

  private FinalReadProbe() {}

  /** Sends {@code perProducer} messages from each of {@code producers} and waits for every ack. */
  public static void produce(BenchmarkDriver driver, String topic, int producers, int perProducer)
      throws Exception {
    produce(driver, topic, producers, 0, perProducer);
  }

  /**
   * Sends {@code perProducer} messages from each of {@code producers}, each with a key of its own,
   * and waits for every ack: for clients that route unkeyed messages to one partition per batch.
   */
  public static void produceKeyed(
      BenchmarkDriver driver, String topic, int producers, int perProducer) throws Exception {
    produce(driver, topic, producers, 0, perProducer, true);
  }

  /** Sends sequences {@code from} (inclusive) to {@code to} (exclusive) from each producer. */
  public static void produce(
      BenchmarkDriver driver, String topic, int producers, long from, long to) throws Exception {
    produce(driver, topic, producers, from, to, false);
  }

  private static void produce(
      BenchmarkDriver driver, String topic, int producers, long from, long to, boolean keyed)
      throws Exception {
    CopyOnWriteArrayList<Throwable> failures = new CopyOnWriteArrayList<>();
    for (int id = 0; id < producers; id++) {
      CountDownLatch acked = new CountDownLatch((int) (to - from));
      try (BenchmarkProducer producer = driver.createProducer(topic).get(60, TimeUnit.SECONDS)) {
        for (long seq = from; seq < to; seq++) {
          byte[] payload = new byte[PAYLOAD_SIZE];
          MessageHeader.write(payload, MessageHeader.KIND_LOAD, RUN_ID, id, seq, System.nanoTime());
          producer.send(
              keyed ? id + "-" + seq : null,
              payload,
              seq,
              (token, failure) -> {
                if (failure != null) {
                  failures.add(failure);
                }
                acked.countDown();
              });
        }
        check(acked.await(120, TimeUnit.SECONDS), "acknowledgements did not all arrive");
      }
    }
    check(failures.isEmpty(), "sends failed: " + failures);
  }

  /** (producer, sequence) of each message received, with how often, and the partitions seen. */
  public static final class Collected implements MessageListener {
    private final Map<Long, AtomicInteger> times = new ConcurrentHashMap<>();
    public final Set<Integer> partitions = ConcurrentHashMap.newKeySet();
    private final Map<Integer, AtomicInteger> byPartition = new ConcurrentHashMap<>();
    public final AtomicInteger count = new AtomicInteger();
    public final CopyOnWriteArrayList<Throwable> errors = new CopyOnWriteArrayList<>();

    @Override
    public void received(byte[] payload, int partition) {
      // Recorded, not thrown: this runs on the client's delivery thread.
      if (payload.length != PAYLOAD_SIZE || !MessageHeader.isFromRun(payload, RUN_ID)) {
        errors.add(new AssertionError("not a message of this test: " + payload.length + " bytes"));
        return;
      }
      long id = ((long) MessageHeader.producerId(payload) << 32) | MessageHeader.sequence(payload);
      times.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      partitions.add(partition);
      byPartition.computeIfAbsent(partition, k -> new AtomicInteger()).incrementAndGet();
      count.incrementAndGet();
    }

    @Override
    public void failed(Throwable error) {
      errors.add(error);
    }

    /** Asserts every (producer, sequence) of the sends is here exactly once, and nothing else. */
    public void assertExactly(int producers, int perProducer) {
      assertExactlyOnce(producers, perProducer, this);
    }

    public int perPartition(int partition) {
      AtomicInteger n = byPartition.get(partition);
      return n == null ? 0 : n.get();
    }

    public int timesOf(int producer, long sequence) {
      AtomicInteger n = times.get(((long) producer << 32) | sequence);
      return n == null ? 0 : n.get();
    }
  }

  /** Between them, {@code parts} received every message sent exactly once, and nothing else. */
  public static void assertExactlyOnce(int producers, int perProducer, Collected... parts) {
    int total = 0;
    for (Collected part : parts) {
      check(part.errors.isEmpty(), "listener errors: " + part.errors);
      total += part.count.get();
    }
    check(
        producers * perProducer == total,
        "messages handed to the listeners: " + total + ", sent " + producers * perProducer);
    for (int id = 0; id < producers; id++) {
      for (long seq = 0; seq < perProducer; seq++) {
        int n = 0;
        for (Collected part : parts) {
          n += part.timesOf(id, seq);
        }
        check(n == 1, "producer " + id + " seq " + seq + " was received " + n + " times, not once");
      }
    }
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }
}
