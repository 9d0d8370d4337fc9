package io.plumb.coordinator;

import io.plumb.workload.Workload;

/**
 * How much heap a workload's topics, producers and consumers take on one worker, from costs per
 * entity measured on the loopback driver (the README's scaling table, {@code bin/entity-scale}), so
 * that a workload that cannot fit is refused before anything is created. A real broker's client
 * library adds its own, per client, which this does not know.
 *
 * @param bytes the estimate, on one worker
 * @param producers producers on that worker
 * @param consumers consumers on that worker
 */
public record MemoryEstimate(long bytes, long producers, long consumers) {
  // Measured after the load (bin/entity-scale, 2026-11-25): 699 B per producer, 505 B per
  // consumer with a quarter of a subscription each, 4.7 GB for a million topics of 4 and 4.

  /** Per producer: its task, schedule, in-flight times, sequence sets, spec and driver object. */
  static final long PER_PRODUCER = 700;

  /** Per consumer: its listener, spec and driver object. */
  static final long PER_CONSUMER = 300;

  /** Per subscription: its recorder, its producers' sequence trackers, its key and name. */
  static final long PER_SUBSCRIPTION = 800;

  /** Per topic: its spec and name, and the driver's object. */
  static final long PER_TOPIC = 200;

  /** Histograms, rings and buffers: what a run of one topic takes. */
  static final long BASE = 64L << 20;

  /** The share of the heap the estimate may take: the rest is for garbage and the drivers. */
  static final double USABLE_SHARE = 0.7;

  /** The whole workload on one worker. */
  public static MemoryEstimate of(Workload workload) {
    return of(workload, 1, 1);
  }

  /**
   * One worker's share when the workload's producers are spread over {@code producingWorkers} and
   * its consumers over {@code consumingWorkers} (a worker that does both counts in both).
   */
  public static MemoryEstimate of(Workload workload, int producingWorkers, int consumingWorkers) {
    long topics = workload.topics();
    long producers = ceilDiv(topics * workload.producersPerTopic(), producingWorkers);
    long subscriptions = ceilDiv(topics * workload.subscriptionsPerTopic(), consumingWorkers);
    long consumers =
        ceilDiv(
            topics * workload.subscriptionsPerTopic() * workload.consumerPerSubscription(),
            consumingWorkers);
    long payloads =
        (long) workload.messageSize()
            * Math.max(
                1, workload.useRandomizedPayloads() ? workload.randomizedPayloadPoolSize() : 1);
    long bytes =
        BASE
            + payloads
            + topics * PER_TOPIC
            + producers * PER_PRODUCER
            + consumers * PER_CONSUMER
            + subscriptions * PER_SUBSCRIPTION;
    return new MemoryEstimate(bytes, producers, consumers);
  }

  /** Whether the estimate fits a heap of {@code maxHeap} bytes. */
  public boolean fits(long maxHeap) {
    return bytes <= (long) (maxHeap * USABLE_SHARE);
  }

  /** The smallest heap that holds the estimate. */
  public long heapNeeded() {
    return (long) Math.ceil(bytes / USABLE_SHARE);
  }

  /** What would hold the workload, for a message to the user. */
  String advice(long maxHeap) {
    long needed = heapNeeded();
    long workers = Math.max(2, (long) Math.ceil((double) needed / maxHeap));
    return String.format(
        "%,d producer(s) and %,d consumer(s) need about %s of heap on one worker; give it"
            + " PLUMB_JAVA_OPTS=-Xmx%dg, or spread the workload over %d workers with a heap of %s"
            + " each (--workers)",
        producers,
        consumers,
        format(needed),
        (needed + (1L << 30) - 1) >> 30,
        workers,
        format(maxHeap));
  }

  static String format(long bytes) {
    return bytes >= 1L << 30
        ? String.format("%.1f GB", bytes / (double) (1L << 30))
        : String.format("%d MB", bytes >> 20);
  }

  private static long ceilDiv(long value, int parts) {
    return (value + parts - 1) / Math.max(1, parts);
  }
}
