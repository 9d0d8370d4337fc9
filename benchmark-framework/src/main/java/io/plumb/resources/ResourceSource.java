package io.plumb.resources;

/**
 * Where a {@link ResourceSampler} reads its snapshots: this JVM ({@link SnapshotReader}) or a
 * remote worker's JVM over HTTP.
 */
@FunctionalInterface
public interface ResourceSource {
  /**
   * The counters now; the longest GC pause in it covers the time since the previous read.
   *
   * @throws RuntimeException when the JVM cannot be read (a process gone, a worker not answering)
   */
  Snapshot read();

  /** Releases what reading holds (the local reader's place among its JVM's pause readers). */
  default void close() {}
}
