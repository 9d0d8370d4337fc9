package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HistogramMergeTest {
  @Test
  void periodsMergedFromTwoWorkersEqualOneRecordingOfEverything() {
    SplittableRandom random = new SplittableRandom(1);
    Histogram all = Histograms.forMerging();
    Histogram workerA = Histograms.forRecording();
    Histogram workerB = Histograms.forRecording();
    for (int i = 0; i < 100_000; i++) {
      // Heavy tail from 1 us to 100 s, the shape that averaging percentiles gets wrong.
      long value = (long) Math.pow(10, 3 + 8 * Math.pow(random.nextDouble(), 4));
      all.recordValue(value);
      (i % 3 == 0 ? workerA : workerB).recordValue(value);
    }
    Histogram merged = Histograms.decode(Histograms.encode(workerA));
    merged.add(Histograms.decode(Histograms.encode(workerB)));
    assertEquals(all.getTotalCount(), merged.getTotalCount());
    for (double percentile : new double[] {50, 90, 99, 99.9, 99.99, 99.999, 100}) {
      assertEquals(
          all.getValueAtPercentile(percentile),
          merged.getValueAtPercentile(percentile),
          "p" + percentile);
    }
    assertEquals(all.getMaxValue(), merged.getMaxValue());
  }

  @Test
  void valuesBeyondTheInitialRangeAreKeptNotClamped() {
    Histogram histogram = Histograms.forRecording();
    long tenMinutes = 600_000_000_000L;
    histogram.recordValue(tenMinutes);
    assertEquals(tenMinutes, histogram.getMaxValue(), tenMinutes / 1000.0);
  }

  @Test
  void periodStatsAddUp() {
    PublishRecorder recorder = new PublishRecorder(1);
    recorder.acknowledged(0, 0, -1, 0, 1_000, 2_000_000);
    recorder.acknowledged(0, 1, -1, 0, PublishRecorder.UNKNOWN, 5_000_000);
    recorder.failed(0, 2, -1, 0, PublishRecorder.UNKNOWN, 0);
    PeriodStats.Builder first = new PeriodStats.Builder();
    recorder.takePeriod(first);
    recorder.acknowledged(0, 3, -1, 0, 10, 1_000);
    PeriodStats.Builder second = new PeriodStats.Builder();
    recorder.takePeriod(second);
    PeriodStats sum = first.build().plus(second.build());
    assertEquals(3, sum.acknowledged());
    assertEquals(1, sum.failed());
    assertEquals(1, sum.untimedAcknowledgements());
    assertEquals(3, sum.publishLatency().getTotalCount());
    assertEquals(2, sum.serviceTime().getTotalCount());
    assertEquals(3, recorder.ackedBy(0));
  }

  @Test
  void aReusedBuilderStartsEachPeriodEmptyAndLeavesTheLastOneAlone() {
    PublishRecorder recorder = new PublishRecorder(1);
    PeriodStats.Builder builder = new PeriodStats.Builder();
    recorder.acknowledged(0, 0, -1, 0, 0, 5_000);
    recorder.acknowledged(0, 1, -1, 0, 0, 7_000);
    recorder.takePeriod(builder);
    builder.addSent(2, 2048, 10);
    PeriodStats first = builder.build();
    builder = builder.next();
    recorder.acknowledged(0, 2, -1, 0, 0, 9_000_000);
    recorder.takePeriod(builder);
    builder.addSent(1, 1024, 10);
    PeriodStats second = builder.build();
    assertEquals(2, first.sent());
    assertEquals(2, first.acknowledged());
    assertEquals(2, first.publishLatency().getTotalCount());
    assertEquals(7_000, first.publishLatency().getMaxValue(), 7);
    assertEquals(1, second.sent());
    assertEquals(1024, second.sentBytes());
    assertEquals(1, second.acknowledged());
    assertEquals(1, second.publishLatency().getTotalCount());
    assertEquals(9_000_000, second.publishLatency().getMinNonZeroValue(), 9_000);
  }
}
