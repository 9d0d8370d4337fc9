package io.plumb.stats;

/** Where a drained {@link EventRing} hands its events, one call per event, in the ring's order. */
interface EventSink {
  void acknowledged(int producer, long intended, long sentAt, long completedAt);

  void sendFailed(int producer);

  void delivered(
      int subscription, int partition, int producerId, int length, long sequence, long latency);

  void consumerError(int subscription);

  void foreign(int subscription);

  void probe(int subscription);
}
