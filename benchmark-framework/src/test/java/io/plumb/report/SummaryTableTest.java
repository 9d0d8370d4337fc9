package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SummaryTableTest {
  @Test
  void latenciesKeepThreeFiguresAtEveryMagnitude() {
    assertEquals("0.000312", SummaryTable.millis(0.000312));
    assertEquals("0.0500", SummaryTable.millis(0.05));
    assertEquals("3.57", SummaryTable.millis(3.5712));
    assertEquals("1,234", SummaryTable.millis(1234.4));
    assertEquals("0", SummaryTable.millis(0));
  }
}
