package io.plumb.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Where JFR cannot start, the collectors' MXBeans count the pauses instead, and the source says so
 * and why: the result's gcSource is this description.
 */
@Tag("host-timing")
class PauseFallbackTest {

  @Test
  void whereJfrCannotStartTheMxBeansCountThePausesAndTheSourceSaysWhy() throws Exception {
    LongestPause longest = new LongestPause();
    AtomicLong cell = longest.register();
    StartingPauses pauses =
        StartingPauses.start(
            longest,
            ignored -> {
              throw new IllegalStateException("no JFR in this JVM");
            });
    try {
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (pauses.description().contains("still starting")) {
        assertTrue(System.nanoTime() < deadline, "no source within 10 s");
        Thread.sleep(10);
      }
      String source = pauses.description();
      assertTrue(source.startsWith("GC MXBeans"), source);
      assertTrue(source.contains("without G1's Remark and Cleanup pauses"), source);
      assertTrue(source.contains("java.lang.IllegalStateException: no JFR in this JVM"), source);

      System.gc(); // a full collection: a pause that G1's MXBeans report
      PauseTotals totals = pauses.read(cell);
      long longestSeen = totals.longestNanos();
      while (totals.count() == 0) {
        assertTrue(System.nanoTime() < deadline, "the collection was not counted within 10 s");
        Thread.sleep(10);
        totals = pauses.read(cell);
        longestSeen = Math.max(longestSeen, totals.longestNanos());
      }
      assertTrue(longestSeen <= totals.nanos(), totals + ", longest " + longestSeen);
      assertEquals(totals.nanos() > 0, longestSeen > 0, totals + ", longest " + longestSeen);
      assertEquals(Map.of(), totals.countByKind(), "the MXBeans cannot tell kinds");
    } finally {
      pauses.stop("test over");
    }
    assertEquals("none: test over", pauses.description());
  }
}
