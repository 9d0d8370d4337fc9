package io.plumb.resources;

import java.util.Map;

/**
 * Stop-the-world pauses of one JVM as its {@link PauseSource} saw them.
 *
 * @param count pauses since the source started
 * @param nanos their summed duration
 * @param longestNanos the longest single pause since the previous read
 * @param countByKind pauses since the source started by kind, JFR's names without their causes (on
 *     G1, "GC Pause" for its young, mixed and full pauses alike, "Pause Remark" and "Pause
 *     Cleanup"; on ZGC, "Pause Mark Start" and the like); empty when the source cannot tell
 */
public record PauseTotals(
    long count, long nanos, long longestNanos, Map<String, Long> countByKind) {
  public PauseTotals {
    countByKind = Map.copyOf(countByKind);
  }
}
