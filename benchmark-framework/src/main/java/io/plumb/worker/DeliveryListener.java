package io.plumb.worker;

import io.plumb.driver.MessageListener;
import io.plumb.load.WorkerClock;
import io.plumb.message.MessageHeader;
import io.plumb.stats.EventRing;
import io.plumb.stats.LastCallerRing;
import io.plumb.stats.StatsCollector;

/**
 * One consumer's listener: reads each delivery's header and reports it, with the time it arrived,
 * on the calling thread's ring. Inside a producer loop's send() (an inline driver) the time is the
 * loop's next reading.
 *
 * <p>Order is judged here, per consumer and in the order messages arrive ({@link ArrivalOrder}),
 * and travels with the delivery as one flag: the statistics thread merges different threads' rings
 * in an order unrelated to arrival. Given to two consumers, one listener judges them as one stream.
 */
public final class DeliveryListener implements MessageListener {
  private final int subscription;
  private final int runId;
  private final StatsCollector stats;
  private final LastCallerRing rings;
  private final WorkerClock clock;
  private final ArrivalOrder order = new ArrivalOrder();

  /**
   * @param subscription the subscription's index in {@code stats}
   * @param runId deliveries of other runs are counted as foreign
   */
  public DeliveryListener(int subscription, int runId, StatsCollector stats, WorkerClock clock) {
    this.subscription = subscription;
    this.runId = runId;
    this.stats = stats;
    this.rings = new LastCallerRing(stats);
    this.clock = clock;
  }

  @Override
  public void received(byte[] payload, int partition) {
    deliver(payload, payload.length, partition);
  }

  /** A message whose header travelled in the broker's metadata: its size is the body's alone. */
  @Override
  public void received(byte[] header, byte[] payload, int partition) {
    deliver(header, payload.length, partition);
  }

  /** {@code header} starts with the framework's header; {@code bytes} is the message's size. */
  private void deliver(byte[] header, int bytes, int partition) {
    EventRing ring = rings.get();
    if (!MessageHeader.isFromRun(header, runId) || MessageHeader.producerId(header) < 0) {
      ring.foreign(subscription);
      return;
    }
    if (MessageHeader.kind(header) == MessageHeader.KIND_PROBE) {
      ring.probe(subscription);
      return;
    }
    int producer = MessageHeader.producerId(header);
    long sequence = MessageHeader.sequence(header);
    ring.delivered(
        subscription,
        producer,
        bytes,
        sequence,
        MessageHeader.intendedSendTime(header),
        ring.deferring() ? 0 : clock.now(),
        order.arrivedAfterLater(producer, partition, sequence));
  }

  @Override
  public void failed(Throwable error) {
    stats.noteConsumerError(error);
    rings.get().consumerError(subscription);
  }
}
