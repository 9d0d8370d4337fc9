package io.plumb.resources;

import java.util.Map;

/**
 * Stop-the-world pauses of one JVM as its {@link PauseSource} saw them.
 *
 * @param count pauses since the source started
 * @param nanos their summed duration
 * @param longestNanos the longest single pause since the previous read
 * @param countByKind pauses since the source started by kind ("Pause Young", "Pause Remark", ...,
 *     the collector's own names without their causes); empty when the source cannot tell
 */
public record PauseTotals(
    long count, long nanos, long longestNanos, Map<String, Long> countByKind) {
  public PauseTotals {
    countByKind = Map.copyOf(countByKind);
  }
}
