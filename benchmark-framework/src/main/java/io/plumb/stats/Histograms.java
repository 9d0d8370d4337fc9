package io.plumb.stats;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** How Plumb makes, encodes and decodes latency histograms. All values are nanoseconds. */
public final class Histograms {
  /** Three significant digits: 0.1% value resolution at every magnitude. */
  public static final int SIGNIFICANT_DIGITS = 3;

  private static final long INITIAL_HIGHEST_NANOS = 10_000_000_000L;

  private Histograms() {}

  /**
   * A histogram for recording. It resizes itself when a value exceeds its range, so nothing is ever
   * clamped.
   */
  public static Histogram forRecording() {
    Histogram histogram = new Histogram(1, INITIAL_HIGHEST_NANOS, SIGNIFICANT_DIGITS);
    histogram.setAutoResize(true);
    return histogram;
  }

  /** A histogram for merging many periods and workers. */
  public static Histogram forMerging() {
    Histogram histogram = new Histogram(1, INITIAL_HIGHEST_NANOS, SIGNIFICANT_DIGITS);
    histogram.setAutoResize(true);
    return histogram;
  }

  /** HdrHistogram's standard compressed encoding, base64: readable by any HdrHistogram tool. */
  public static String encode(Histogram histogram) {
    ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
    int length = histogram.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
  }

  /**
   * HdrHistogram's plain encoding: only the buckets in use, so a period's histogram of some 200 KB
   * keeps in a few KB. Unlike {@link #encode}, no zlib: decoding is what a reader waits for.
   */
  public static byte[] toBytes(Histogram histogram) {
    int needed = histogram.getNeededByteBufferCapacity();
    ByteBuffer buffer = SCRATCH.get();
    if (buffer.capacity() < needed) {
      buffer = ByteBuffer.allocate(needed);
      SCRATCH.set(buffer);
    }
    buffer.clear();
    int length = histogram.encodeIntoByteBuffer(buffer);
    return java.util.Arrays.copyOf(buffer.array(), length);
  }

  // The encoding needs room for every bucket (some 200 KB) and keeps a few KB of it: one buffer a
  // thread, so that keeping a period does not leave 800 KB of garbage beside a running generator.
  private static final ThreadLocal<ByteBuffer> SCRATCH =
      ThreadLocal.withInitial(() -> ByteBuffer.allocate(0));

  /** The histogram {@link #toBytes} encoded, count for count, resizing itself as one made here. */
  public static Histogram fromBytes(byte[] encoded) {
    Histogram histogram = Histogram.decodeFromByteBuffer(ByteBuffer.wrap(encoded), 0);
    histogram.setAutoResize(true);
    return histogram;
  }

  public static Histogram decode(String base64) {
    try {
      Histogram decoded =
          Histogram.decodeFromCompressedByteBuffer(
              ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
      Histogram merged = forMerging();
      merged.add(decoded);
      return merged;
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("not an encoded HdrHistogram: " + e.getMessage(), e);
    }
  }
}
