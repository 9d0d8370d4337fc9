package io.plumb.search;

import java.util.List;
import java.util.Optional;

/**
 * Where a search ended.
 *
 * @param goal "peak" or the latency target as the user wrote it
 * @param foundRate the highest sustained rate, or empty when none at or above the minimum was
 * @param lowestFailedRate the lowest rate that failed, or empty when none did
 * @param limitedBy what stopped the rate from going higher: {@code broker} (acknowledgements,
 *     consumers or backpressure), {@code generator} (this host could not send faster), {@code
 *     undecided} (producers fell behind and the evidence pointed both ways), {@code
 *     latency-target}, {@code errors}, {@code max-rate} (the search's ceiling) or {@code steps}
 * @param conclusion one sentence for people
 * @param incompleteReason why the search stopped before it could conclude (a probe's run failed or
 *     was interrupted), or null
 * @param clientWindows the send and receive windows the probes ran with ({@link
 *     io.plumb.result.WindowSummary}), or empty when the driver reported none
 */
public record SearchResult(
    String goal,
    Optional<Double> foundRate,
    Optional<Double> lowestFailedRate,
    String limitedBy,
    String conclusion,
    List<SearchStep> steps,
    SearchSettings settings,
    double seconds,
    String incompleteReason,
    Optional<String> clientWindows) {

  public boolean complete() {
    return incompleteReason == null;
  }
}
