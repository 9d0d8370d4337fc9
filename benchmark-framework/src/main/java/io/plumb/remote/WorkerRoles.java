package io.plumb.remote;

/** How producers and consumers are spread over remote workers. */
public enum WorkerRoles {
  /**
   * OpenMessaging Benchmark's split: the first half of the workers produce, the second half
   * consume, so end-to-end latency always crosses hosts. One worker does both.
   */
  SPLIT,
  /** Every worker produces and consumes: more load from the same hosts. */
  BOTH
}
