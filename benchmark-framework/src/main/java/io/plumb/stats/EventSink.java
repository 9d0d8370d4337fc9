package io.plumb.stats;

/** Where a drained {@link EventRing} hands its events, one call per event, in the ring's order. */
interface EventSink {
  /**
   * @param sequenceLow the low 32 bits of the message's sequence number; the receiver extends it
   *     (acknowledgements of one producer are never 2^31 apart)
   * @param partition the partition the driver named, or -1 when unknown
   * @param sentAt the actual send time, or {@link PublishRecorder#UNKNOWN}
   */
  void acknowledged(
      int producer, int sequenceLow, int partition, long intended, long sentAt, long completedAt);

  void sendFailed(
      int producer, int sequenceLow, int partition, long intended, long sentAt, long completedAt);

  /**
   * @param afterLater the consumer received it after a later message of the same producer and
   *     partition (judged on the delivering thread, in arrival order)
   */
  void delivered(
      int subscription,
      int producerId,
      int length,
      long sequence,
      long latency,
      boolean afterLater);

  void consumerError(int subscription);

  void foreign(int subscription);

  void probe(int subscription);
}
