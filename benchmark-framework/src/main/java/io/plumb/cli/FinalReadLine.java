package io.plumb.cli;

import io.plumb.result.FinalReadFigures;
import java.util.stream.Collectors;

/** The console's one line on the final read: what loss was judged against, and why. */
final class FinalReadLine {
  /** More topics than this are summed up rather than listed one by one. */
  private static final int TOPICS_LISTED = 4;

  private FinalReadLine() {}

  /**
   * @param acknowledged the run's acknowledged messages: beside what the read found, so that a log
   *     that came back short after a power loss shows as such even where the consumer, which kept
   *     up, lost nothing
   */
  static String describe(FinalReadFigures read, long acknowledged) {
    if (!read.ran()) {
      return "Final read   not run (" + read.whyNot() + "): loss judged by the drain";
    }
    String ends =
        read.endByTopic().size() > TOPICS_LISTED
            ? String.format("%,d topics read to their end", read.endByTopic().size())
            : read.endByTopic().entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining("; "));
    return String.format(
        "Final read   %,d message(s) in %.1f s, of a run that had %,d acknowledged | acknowledged and"
            + " found only by the read (not lost) %,d | %s",
        read.messagesRead(),
        read.seconds(),
        acknowledged,
        read.acknowledgedFoundOnlyByRead(),
        ends);
  }
}
