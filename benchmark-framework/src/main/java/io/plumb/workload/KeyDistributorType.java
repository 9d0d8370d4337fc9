package io.plumb.workload;

/** How producers choose message keys; the names are OpenMessaging Benchmark's. */
public enum KeyDistributorType {
  /** No key: the broker spreads messages as it likes. */
  NO_KEY,
  /** Keys taken in turn from a fixed set, spreading messages evenly over partitions. */
  KEY_ROUND_ROBIN,
  /** A key picked at random from the fixed set (OMB picks it by the clock's low digits). */
  RANDOM_NANO
}
