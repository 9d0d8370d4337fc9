package io.plumb.message;

import io.plumb.driver.MetadataHeader;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The framework's header at the start of every payload, so that drivers need no timing code and
 * every broker is measured the same way.
 *
 * <pre>
 * offset size field
 *      0    1 magic 'P'
 *      1    1 kind: 0 load message, 1 readiness probe
 *      2    4 run id: messages of other runs (a reused topic) are recognised and not counted
 *      6    4 producer id, unique within the run
 *     10    8 sequence number within the producer, from 0
 *     18    8 intended send time, epoch nanoseconds on the producing worker's clock
 * </pre>
 */
public final class MessageHeader {
  public static final int SIZE = MetadataHeader.SIZE;
  public static final byte KIND_LOAD = 0;
  public static final byte KIND_PROBE = 1;

  private static final byte MAGIC = 'P';
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private MessageHeader() {}

  public static void write(
      byte[] payload, byte kind, int runId, int producerId, long sequence, long intendedSendTime) {
    payload[0] = MAGIC;
    payload[1] = kind;
    INT.set(payload, 2, runId);
    INT.set(payload, 6, producerId);
    LONG.set(payload, 10, sequence);
    LONG.set(payload, 18, intendedSendTime);
  }

  /** True when the payload carries a header of run {@code runId}. */
  public static boolean isFromRun(byte[] payload, int runId) {
    return payload != null
        && payload.length >= SIZE
        && payload[0] == MAGIC
        && (int) INT.get(payload, 2) == runId;
  }

  public static byte kind(byte[] payload) {
    return payload[1];
  }

  public static int producerId(byte[] payload) {
    return (int) INT.get(payload, 6);
  }

  public static long sequence(byte[] payload) {
    return (long) LONG.get(payload, 10);
  }

  public static long intendedSendTime(byte[] payload) {
    return (long) LONG.get(payload, 18);
  }
}
