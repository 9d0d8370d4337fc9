package io.plumb.remote;

import io.plumb.stats.SequenceRanges;
import io.plumb.worker.WorkerSpecs.Totals;
import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A worker's {@link Totals} in a compact binary form for the wire: varints, range bounds as
 * differences from the previous bound. One producer's messages are normally one range from 0, so an
 * entry takes 4 to 8 bytes where JSON took about 30, and decoding builds no tree of boxed values on
 * the way: with millions of producers per worker (OMB's 1M-topic file over two workers) the JSON
 * form ran to hundreds of megabytes and kept both JVMs in garbage collection for seconds.
 */
final class TotalsCodec {
  private static final int VERSION = 1;

  private TotalsCodec() {}

  static byte[] encode(Totals totals) {
    Writer out = new Writer();
    out.varint(VERSION);
    out.varint(totals.duplicatesAcrossWorkers());
    out.rangesById(totals.ackedByProducer());
    out.rangesById(totals.failedByProducer());
    out.varint(totals.receivedBySubscription().size());
    totals
        .receivedBySubscription()
        .forEach(
            (key, byProducer) -> {
              out.string(key);
              out.rangesById(byProducer);
            });
    return out.toByteArray();
  }

  /**
   * @throws IllegalArgumentException when the data is cut short, of another version or describes
   *     ranges that are not ascending and disjoint
   */
  static Totals decode(byte[] data) {
    ByteBuffer in = ByteBuffer.wrap(data);
    try {
      long version = varint(in);
      if (version != VERSION) {
        throw new IllegalArgumentException(
            "totals encoded in version " + version + ", this coordinator reads " + VERSION);
      }
      long duplicates = varint(in);
      Map<Integer, SequenceRanges> acked = rangesById(in);
      Map<Integer, SequenceRanges> failed = rangesById(in);
      int subscriptions = count(in);
      Map<String, Map<Integer, SequenceRanges>> received = new HashMap<>(capacity(subscriptions));
      for (int i = 0; i < subscriptions; i++) {
        String key = string(in);
        received.put(key, rangesById(in));
      }
      if (in.hasRemaining()) {
        throw new IllegalArgumentException(in.remaining() + " bytes after the totals");
      }
      return new Totals(acked, failed, received, duplicates);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("totals cut short at byte " + in.position(), e);
    }
  }

  private static Map<Integer, SequenceRanges> rangesById(ByteBuffer in) {
    int entries = count(in);
    Map<Integer, SequenceRanges> map = new HashMap<>(capacity(entries));
    for (int i = 0; i < entries; i++) {
      long id = varint(in);
      if (id > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("producer id " + id + " out of range");
      }
      int boundCount = count(in);
      long[] bounds = new long[boundCount];
      long previous = 0;
      for (int b = 0; b < boundCount; b++) {
        previous += varint(in);
        bounds[b] = previous;
      }
      // The constructor checks that the bounds pair up and ascend.
      map.put((int) id, new SequenceRanges(bounds));
    }
    return map;
  }

  private static String string(ByteBuffer in) {
    byte[] bytes = new byte[count(in)];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * A count, no larger than the bytes left could hold (so bad data cannot ask for a huge array).
   */
  private static int count(ByteBuffer in) {
    long count = varint(in);
    if (count > in.remaining()) {
      throw new IllegalArgumentException(
          "a count of " + count + " with " + in.remaining() + " bytes left");
    }
    return (int) count;
  }

  /** An unsigned LEB128 varint: seven bits a byte, high bit set on all but the last. */
  private static long varint(ByteBuffer in) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.get();
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        if (value < 0) {
          throw new IllegalArgumentException("a negative number where none can be");
        }
        return value;
      }
    }
    throw new IllegalArgumentException("a varint longer than 64 bits");
  }

  private static int capacity(int entries) {
    return (int) Math.min(Integer.MAX_VALUE, entries * 4L / 3 + 1);
  }

  private static final class Writer extends ByteArrayOutputStream {
    Writer() {
      super(1 << 16);
    }

    void rangesById(Map<Integer, SequenceRanges> map) {
      varint(map.size());
      map.forEach(
          (id, ranges) -> {
            varint(id);
            long[] bounds = ranges.bounds();
            varint(bounds.length);
            long previous = 0;
            for (long bound : bounds) {
              varint(bound - previous);
              previous = bound;
            }
          });
    }

    void string(String text) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      varint(bytes.length);
      write(bytes, 0, bytes.length);
    }

    void varint(long value) {
      if (value < 0) {
        throw new IllegalArgumentException("cannot encode a negative number: " + value);
      }
      while ((value & ~0x7fL) != 0) {
        write((int) ((value & 0x7f) | 0x80));
        value >>>= 7;
      }
      write((int) value);
    }
  }
}
