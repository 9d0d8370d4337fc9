package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** Writes headed messages through a driver's producers and collects what a listener receives. */
final class FinalReadProbe {

  static final int RUN_ID = 25;
  static final int PAYLOAD_SIZE = 100;

  private FinalReadProbe() {}

  /** Sends {@code perProducer} messages from each of {@code producers} and waits for every ack. */
  static void produce(BenchmarkDriver driver, String topic, int producers, int perProducer)
      throws Exception {
    produce(driver, topic, producers, 0, perProducer);
  }

  /** Sends sequences {@code from} (inclusive) to {@code to} (exclusive) from each producer. */
  static void produce(BenchmarkDriver driver, String topic, int producers, long from, long to)
      throws Exception {
    CopyOnWriteArrayList<Throwable> failures = new CopyOnWriteArrayList<>();
    for (int id = 0; id < producers; id++) {
      CountDownLatch acked = new CountDownLatch((int) (to - from));
      try (BenchmarkProducer producer = driver.createProducer(topic).get(60, TimeUnit.SECONDS)) {
        for (long seq = from; seq < to; seq++) {
          byte[] payload = new byte[PAYLOAD_SIZE];
          MessageHeader.write(payload, MessageHeader.KIND_LOAD, RUN_ID, id, seq, System.nanoTime());
          producer.send(
              null,
              payload,
              seq,
              (token, failure) -> {
                if (failure != null) {
                  failures.add(failure);
                }
                acked.countDown();
              });
        }
        assertTrue(acked.await(120, TimeUnit.SECONDS), "acknowledgements did not all arrive");
      }
    }
    assertTrue(failures.isEmpty(), "sends failed: " + failures);
  }

  /** (producer, sequence) of each message received, with how often, and the partitions seen. */
  static final class Collected implements MessageListener {
    final Map<Long, AtomicInteger> times = new ConcurrentHashMap<>();
    final Set<Integer> partitions = ConcurrentHashMap.newKeySet();
    final Map<Integer, AtomicInteger> byPartition = new ConcurrentHashMap<>();
    final AtomicInteger count = new AtomicInteger();
    final CopyOnWriteArrayList<Throwable> errors = new CopyOnWriteArrayList<>();

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
    void assertExactly(int producers, int perProducer) {
      assertExactlyOnce(producers, perProducer, this);
    }

    int perPartition(int partition) {
      AtomicInteger n = byPartition.get(partition);
      return n == null ? 0 : n.get();
    }

    int timesOf(int producer, long sequence) {
      AtomicInteger n = times.get(((long) producer << 32) | sequence);
      return n == null ? 0 : n.get();
    }
  }

  /** Between them, {@code parts} received every message sent exactly once, and nothing else. */
  static void assertExactlyOnce(int producers, int perProducer, Collected... parts) {
    int total = 0;
    for (Collected part : parts) {
      assertTrue(part.errors.isEmpty(), "listener errors: " + part.errors);
      total += part.count.get();
    }
    assertEquals(producers * perProducer, total, "messages handed to the listeners");
    for (int id = 0; id < producers; id++) {
      for (long seq = 0; seq < perProducer; seq++) {
        int n = 0;
        for (Collected part : parts) {
          n += part.timesOf(id, seq);
        }
        assertEquals(1, n, "times producer " + id + " seq " + seq + " was received");
      }
    }
  }
}
