package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.stats.Histograms;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class NinesCurveTest {
  /** 1 to 100,000 microseconds, once each: the value at percentile p is p% of 100 ms. */
  private static Histogram uniform() {
    Histogram histogram = Histograms.forRecording();
    for (long micros = 1; micros <= 100_000; micros++) {
      histogram.recordValue(micros * 1000);
    }
    return histogram;
  }

  private static NinesCurve.Point at(List<NinesCurve.Point> curve, double x) {
    return curve.stream().filter(p -> Math.abs(p.x() / x - 1) < 1e-9).findFirst().orElseThrow();
  }

  @Test
  void eachNineSitsOneDecadeFurtherRight() {
    List<NinesCurve.Point> curve = NinesCurve.of(uniform());
    assertEquals(0, at(curve, 1).percentile(), 1e-9);
    assertEquals(90, at(curve, 10).percentile(), 1e-9);
    assertEquals(99, at(curve, 100).percentile(), 1e-9);
    assertEquals(99.9999, at(curve, 1e6).percentile(), 1e-7);
    assertEquals(90.0, at(curve, 10).millis(), 0.1);
    assertEquals(99.0, at(curve, 100).millis(), 0.1);
    assertEquals(99.9, at(curve, 1000).millis(), 0.1);
    assertEquals(0.001, at(curve, 1).millis(), 1e-6);
  }

  @Test
  void endsWithTheMaximumPastSixNines() {
    List<NinesCurve.Point> curve = NinesCurve.of(uniform());
    NinesCurve.Point last = curve.get(curve.size() - 1);
    assertEquals(NinesCurve.MAX_X, last.x());
    assertEquals(100, last.percentile());
    assertEquals(100.0, last.millis(), 0.1);
    for (int i = 1; i < curve.size(); i++) {
      assertTrue(curve.get(i).x() > curve.get(i - 1).x(), "x grows");
      assertTrue(curve.get(i).millis() >= curve.get(i - 1).millis(), "latency never falls");
    }
  }

  @Test
  void anEmptyHistogramHasNoCurve() {
    assertTrue(NinesCurve.of(Histograms.forRecording()).isEmpty());
  }
}
