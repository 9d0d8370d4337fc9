package io.plumb.stats;

import org.HdrHistogram.Histogram;

/**
 * A histogram written by one thread, whose rising maximum costs a compare-and-set once per bucket
 * instead of once per value.
 *
 * <p>HdrHistogram updates its maximum with a compare-and-set whenever a value exceeds it. When a
 * run falls behind its schedule every latency is a new maximum, and those atomic operations were
 * the largest single cost of recording. A value that opens a new top bucket is recorded as the
 * highest value equivalent to it, which lands in the same bucket and leaves {@link
 * Histogram#getMaxValue()} (always reported as a bucket's highest equivalent value) unchanged, so
 * the histogram's contents are exactly what plain recording would give.
 */
final class RecordingHistogram {
  private final Histogram histogram = Histograms.forRecording();
  private long topOfHighestBucket;

  void record(long value) {
    if (value > topOfHighestBucket) {
      value = histogram.highestEquivalentValue(value);
      topOfHighestBucket = value;
    }
    histogram.recordValue(value);
  }

  Histogram histogram() {
    return histogram;
  }

  void reset() {
    histogram.reset();
    topOfHighestBucket = 0;
  }
}
