package io.plumb.driver.redis;

import java.nio.charset.StandardCharsets;

/**
 * {@code WAIT replicas timeout} after each pipeline batch: Redis replicates asynchronously, and
 * WAIT blocks the connection until {@code replicas} replicas have acknowledged every write the
 * connection made before it, or the timeout passes. It then answers with the number that did. A
 * batch counts as acknowledged only when that number reaches {@code replicas}; fewer within the
 * timeout fails every message of the batch (their XADDs may well be on the primary, but the
 * replication the file asked for was not confirmed, so the run must not count them acknowledged).
 *
 * @param replicas replicas that must acknowledge, at least 1
 * @param timeoutMillis how long WAIT blocks at most, at least 1 (Redis's 0 would block forever)
 */
record ReplicaWait(int replicas, int timeoutMillis) {

  /** The command, encoded once and appended to every batch. */
  byte[] command() {
    return RespBuffer.prefix(
        3,
        StreamFields.bytes("WAIT"),
        Integer.toString(replicas).getBytes(StandardCharsets.US_ASCII),
        Integer.toString(timeoutMillis).getBytes(StandardCharsets.US_ASCII));
  }

  /** Null if WAIT's reply confirms the batch; otherwise why it is not acknowledged. */
  ReplicationShortfall check(Object reply) {
    long acknowledged = reply instanceof Long n ? n : -1;
    return acknowledged >= replicas ? null : new ReplicationShortfall(this, acknowledged);
  }

  /** A batch whose WAIT returned fewer replicas than asked. */
  static final class ReplicationShortfall extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ReplicationShortfall(ReplicaWait wait, long acknowledged) {
      super(
          "WAIT "
              + wait.replicas
              + " "
              + wait.timeoutMillis
              + " answered "
              + acknowledged
              + ": fewer replicas than asked confirmed the batch within "
              + wait.timeoutMillis
              + " ms",
          null,
          false,
          false);
    }
  }
}
