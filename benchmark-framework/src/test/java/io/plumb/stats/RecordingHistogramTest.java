package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RecordingHistogramTest {

  @Test
  void risingValuesGiveExactlyThePlainHistogram() {
    RecordingHistogram recording = new RecordingHistogram();
    Histogram plain = Histograms.forRecording();
    for (long value = 1; value < 50_000_000_000L; value += 1 + value / 997) {
      recording.record(value);
      plain.recordValue(value);
    }
    assertEquals(plain, recording.histogram());
    assertEquals(plain.getMaxValue(), recording.histogram().getMaxValue());
    assertEquals(plain.getMinNonZeroValue(), recording.histogram().getMinNonZeroValue());
  }

  @Test
  void randomValuesAndResetsGiveExactlyThePlainHistogram() {
    RecordingHistogram recording = new RecordingHistogram();
    Histogram plain = Histograms.forRecording();
    SplittableRandom random = new SplittableRandom(7);
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 100_000; i++) {
        long value = random.nextLong(0, 1L << random.nextInt(1, 40));
        recording.record(value);
        plain.recordValue(value);
      }
      assertEquals(plain, recording.histogram());
      assertEquals(plain.getMaxValue(), recording.histogram().getMaxValue());
      recording.reset();
      plain.reset();
    }
  }
}
