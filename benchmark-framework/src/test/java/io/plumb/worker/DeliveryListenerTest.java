package io.plumb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.load.WorkerClock;
import io.plumb.message.MessageHeader;
import io.plumb.stats.EventRing;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.StatsCollector;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Ordering is judged per consumer, in the order its messages arrive, whatever thread they use. */
class DeliveryListenerTest {
  private static final int RUN = 42;

  private StatsCollector stats;
  private int subscription;
  private final WorkerClock clock = new WorkerClock();
  private final ExecutorService first = Executors.newSingleThreadExecutor();
  private final ExecutorService second = Executors.newSingleThreadExecutor();

  @BeforeEach
  void start() {
    stats = new StatsCollector("test-stats");
    subscription = stats.addSubscription("t", "s", 0);
  }

  @AfterEach
  void stop() {
    first.shutdownNow();
    second.shutdownNow();
    stats.close();
  }

  @Test
  void oneConsumersDeliveriesDrainedFromTwoRingsInTheWrongOrderAreInOrder() throws Exception {
    DeliveryListener consumer = listener();
    // Message 0 arrives on the first thread, whose ring holds it back (as inside a send()), then
    // 1 on the second thread: the collector sees 1 before 0, but 0 arrived first.
    first
        .submit(
            () -> {
              stats.ring().deferTimes();
              consumer.received(load(0, 0), 0);
            })
        .get();
    second.submit(() -> consumer.received(load(0, 1), 0)).get();
    stats.inspect((publish, recorders) -> null);
    first
        .submit(
            () -> {
              EventRing ring = stats.ring();
              ring.stampDeferred(clock.now());
              ring.flush();
            })
        .get();
    second.submit(() -> consumer.received(load(0, 2), 0)).get();

    assertEquals(new Deliveries(3, 0, 0), deliveries());
  }

  @Test
  void aConsumerThatReallyReceivesFiveBeforeFourIsCounted() {
    DeliveryListener consumer = listener();
    receive(consumer, 0, 1, 2, 3, 5, 4, 6);
    assertEquals(new Deliveries(7, 1, 0), deliveries());
  }

  @Test
  void orderIsPerProducerAndPartition() {
    DeliveryListener consumer = listener();
    consumer.received(load(0, 10), 0);
    consumer.received(load(1, 3), 0);
    consumer.received(load(0, 4), 1);
    assertEquals(0, period().outOfOrder(), "no order is promised across producers or partitions");
    consumer.received(load(0, 9), 0);
    assertEquals(1, period().outOfOrder());
  }

  @Test
  void twoConsumersEachInOrderButInterleavedAreInOrder() {
    DeliveryListener a = listener();
    DeliveryListener b = listener();
    // Competing consumers of one queue: a gets the even numbers, b the odd, interleaved.
    receive(a, 0, 2);
    receive(b, 1);
    receive(a, 4);
    receive(b, 3, 5);
    assertEquals(new Deliveries(6, 0, 0), deliveries());
  }

  @Test
  void oneListenerSharedByTwoConsumersJudgesThemAsOneStream() {
    DeliveryListener shared = listener();
    first.execute(() -> shared.received(load(0, 0), 0));
    first.execute(() -> shared.received(load(0, 2), 0));
    awaitQuiet(first);
    second.execute(() -> shared.received(load(0, 1), 0));
    awaitQuiet(second);
    first.execute(() -> shared.received(load(0, 4), 0));
    awaitQuiet(first);
    second.execute(() -> shared.received(load(0, 3), 0));
    second.execute(() -> shared.received(load(0, 5), 0));
    awaitQuiet(second);
    assertEquals(new Deliveries(6, 2, 0), deliveries(), "1 came after 2, 3 after 4");
  }

  @Test
  void aRedeliveryIsADuplicateNotAReordering() {
    DeliveryListener consumer = listener();
    receive(consumer, 0, 1, 2, 1, 3);
    assertEquals(new Deliveries(5, 0, 1), deliveries());
  }

  private DeliveryListener listener() {
    return new DeliveryListener(subscription, RUN, stats, clock);
  }

  /** {@code consumer} receives producer 0's {@code sequences} on partition 0, in this order. */
  private static void receive(DeliveryListener consumer, long... sequences) {
    for (long sequence : sequences) {
      consumer.received(load(0, sequence), 0);
    }
  }

  private static byte[] load(int producer, long sequence) {
    byte[] payload = new byte[64];
    MessageHeader.write(payload, MessageHeader.KIND_LOAD, RUN, producer, sequence, 0);
    return payload;
  }

  /** What a period counts of the deliveries it saw. */
  private record Deliveries(long received, long outOfOrder, long duplicates) {}

  /** The deliveries of the period that ends now. */
  private Deliveries deliveries() {
    PeriodStats period = period();
    return new Deliveries(period.received(), period.outOfOrder(), period.duplicates());
  }

  private PeriodStats period() {
    PeriodStats.Builder builder = new PeriodStats.Builder();
    stats.takePeriod(builder);
    return builder.build();
  }

  private static void awaitQuiet(ExecutorService executor) {
    try {
      executor.submit(() -> {}).get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
