package io.plumb.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** --slo and --rates: what they accept, and one-line errors for what they do not. */
class SearchInputTest {

  @Test
  void latencyTargetsParse() {
    LatencyTarget e2e = LatencyTarget.parse("p99 end-to-end <= 10ms");
    assertEquals(LatencyTarget.Family.END_TO_END, e2e.family());
    assertEquals(99.0, e2e.percentile());
    assertEquals(10_000_000L, e2e.limitNanos());
    LatencyTarget publish = LatencyTarget.parse("P99.9 publish<=500us");
    assertEquals(LatencyTarget.Family.PUBLISH, publish.family());
    assertEquals(99.9, publish.percentile());
    assertEquals(500_000L, publish.limitNanos());
    assertEquals(1_500_000_000L, LatencyTarget.parse("p50 publish <= 1.5s").limitNanos());
    assertEquals("p99 end-to-end <= 10ms", e2e.describe());
  }

  @Test
  void badLatencyTargetsAreOneLineNamingTheOption() {
    for (String bad :
        List.of(
            "p99 e2e <= 10ms",
            "99 publish <= 10ms",
            "p99 publish < 10ms",
            "p99 publish <= 10",
            "p99 publish <= 10 minutes",
            "p101 publish <= 10ms",
            "p0 publish <= 10ms",
            "p99 publish <= 0ms",
            "")) {
      assertOneLineError("--slo: ", () -> LatencyTarget.parse(bad));
    }
    assertTrue(
        assertThrows(BadInputException.class, () -> LatencyTarget.parse("p99 e2e <= 10ms"))
            .getMessage()
            .contains("publish or end-to-end"));
  }

  @Test
  void rateListsParse() {
    assertEquals(
        List.of(10_000.0, 50_000.0, 100_000.0, 200_000.0, 500_000.0, 1_000_000.0),
        RateList.parse("10k,50k,100k,200k,500k,1M"));
    assertEquals(List.of(1500.0, 250.0, 2_500_000.0), RateList.parse("1.5k, 250 ,2.5M"));
  }

  @Test
  void badRateListsAreOneLineNamingTheOptionAndItem() {
    for (String bad : List.of("10k,,20k", "10x", "fast", "0", "-5k", "10k,", "2000M", "1m")) {
      assertOneLineError("--rates: ", () -> RateList.parse(bad));
    }
    assertTrue(
        assertThrows(BadInputException.class, () -> RateList.parse("10k,fast"))
            .getMessage()
            .contains("'fast'"));
  }

  /** {@code parse} fails with one line of error that starts with {@code prefix}. */
  private static void assertOneLineError(String prefix, Executable parse) {
    BadInputException e = assertThrows(BadInputException.class, parse);
    assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }
}
