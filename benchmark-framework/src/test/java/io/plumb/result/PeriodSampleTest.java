package io.plumb.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.stats.Histograms;
import io.plumb.stats.PeriodCounts;
import io.plumb.stats.PeriodStats;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PeriodSampleTest {
  private static final double[] PERCENTILES = {0, 50, 90, 99, 99.9, 99.99, 99.9999, 100};

  @Test
  void figuresReadAfterTheirReleaseAreTheSameCountForCount() {
    PeriodStats period = periodWithSpreadLatencies();
    PeriodSample sample = new PeriodSample(period, 1.25, 42);
    assertSame(period, sample.stats(), "held as it came until released");
    assertTrue(sample.heldBytes() > 600_000, "held: " + sample.heldBytes());

    sample.release();
    PeriodStats decoded = sample.stats();

    assertNotSame(period, decoded);
    assertEquals(1.25, sample.seconds());
    assertEquals(42, sample.backlog());
    assertSameCounts(period, decoded);
    assertSameDistribution(period.publishLatency(), decoded.publishLatency());
    assertSameDistribution(period.endToEndLatency(), decoded.endToEndLatency());
    assertSameDistribution(period.serviceTime(), decoded.serviceTime());
    assertSameDistribution(period.sendDelay(), decoded.sendDelay());
    assertEquals(0, sample.heldBytes());
    assertNotSame(decoded, sample.stats(), "decoded anew for each reader, never held again");
  }

  @Test
  void countsAreReadWithoutDecodingAndCarryNoHistogramToMisread() {
    PeriodStats period = periodWithSpreadLatencies();
    PeriodSample sample = new PeriodSample(period, 1, 0);
    sample.release();

    PeriodStats counts = sample.counts();
    assertSame(counts, sample.counts(), "kept, not rebuilt per read");
    assertSameCounts(period, counts);
    assertEquals(period.producerThreads(), counts.producerThreads());
    assertNull(counts.publishLatency());
    assertNull(counts.endToEndLatency());
  }

  @Test
  void aDecodedHistogramStillTakesValuesBeyondItsRangeAsARecordingOneDoes() {
    PeriodSample sample = new PeriodSample(periodWithSpreadLatencies(), 1, 0);
    sample.release();
    Histogram merged = sample.stats().publishLatency();
    merged.recordValue(3_600_000_000_000L);
    assertEquals(3_600_000_000_000L, merged.getMaxValue(), 3_600_000_000_000L / 1000.0);
  }

  @Test
  void aPeriodKeepsAFewKilobytesWhereItsHistogramsTakeHundreds() {
    PeriodStats period = periodWithSpreadLatencies();
    long plain =
        period.publishLatency().getEstimatedFootprintInBytes()
            + period.endToEndLatency().getEstimatedFootprintInBytes()
            + period.serviceTime().getEstimatedFootprintInBytes()
            + period.sendDelay().getEstimatedFootprintInBytes();
    long kept = new PeriodSample(period, 1, 0).encodedBytes();
    assertTrue(plain > 600_000, "four histograms in memory: " + plain + " bytes");
    assertTrue(kept < 40_000, "kept encoded: " + kept + " bytes");
  }

  private static PeriodStats periodWithSpreadLatencies() {
    SplittableRandom random = new SplittableRandom(7);
    Histogram publish = Histograms.forMerging();
    Histogram endToEnd = Histograms.forMerging();
    for (int i = 0; i < 200_000; i++) {
      // Log-uniform from 10 us to 10 s: every magnitude's buckets in use.
      publish.recordValue((long) Math.pow(10, 4 + 6 * random.nextDouble()));
      endToEnd.recordValue((long) Math.pow(10, 4.5 + 5 * random.nextDouble()));
    }
    return new PeriodCounts(200_000, 199_990, 10, 199_000, 3).withLatencies(publish, endToEnd);
  }

  /** {@code actual} counts the messages {@code expected} does, outcome by outcome. */
  private static void assertSameCounts(PeriodStats expected, PeriodStats actual) {
    assertEquals(expected.sent(), actual.sent(), "sent");
    assertEquals(expected.acknowledged(), actual.acknowledged(), "acknowledged");
    assertEquals(expected.failed(), actual.failed(), "failed");
    assertEquals(expected.received(), actual.received(), "received");
    assertEquals(expected.duplicates(), actual.duplicates(), "duplicates");
  }

  private static void assertSameDistribution(Histogram expected, Histogram actual) {
    assertEquals(expected.getTotalCount(), actual.getTotalCount());
    assertEquals(expected.getMean(), actual.getMean(), 1e-9 * Math.max(1, expected.getMean()));
    assertEquals(expected.getMaxValue(), actual.getMaxValue());
    assertEquals(expected.getMinNonZeroValue(), actual.getMinNonZeroValue());
    for (double p : PERCENTILES) {
      assertEquals(expected.getValueAtPercentile(p), actual.getValueAtPercentile(p), "p" + p);
    }
    assertEquals(expected, actual);
  }
}
