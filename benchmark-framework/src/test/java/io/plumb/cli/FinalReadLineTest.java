package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.result.FinalReadFigures;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FinalReadLineTest {

  @Test
  void aReadThatRanSaysWhatItReadAndWhereEachTopicEnded() {
    Map<String, String> ends = new LinkedHashMap<>();
    ends.put("t-0", "end offsets 10 + 12 on 2 partitions");
    ends.put("t-1", "last ID 5-0");
    assertEquals(
        "Final read   1,234 message(s) in 2.5 s, of a run that had 1,300 acknowledged |"
            + " acknowledged and found only by the read (not lost) 56 | t-0: end offsets 10 + 12 on"
            + " 2 partitions; t-1: last ID 5-0",
        FinalReadLine.describe(new FinalReadFigures(true, null, 2.5, 1234, 56, 0, ends), 1300));
  }

  @Test
  void aReadThatDidNotRunSaysWhyAndThatTheDrainJudged() {
    assertEquals(
        "Final read   not run (Redis Pub/Sub keeps no messages): loss judged by the drain",
        FinalReadLine.describe(FinalReadFigures.notRun("Redis Pub/Sub keeps no messages"), 10));
  }

  @Test
  void manyTopicsAreCountedNotListed() {
    Map<String, String> ends = new LinkedHashMap<>();
    for (int i = 0; i < 5; i++) {
      ends.put("t-" + i, "x");
    }
    assertEquals(
        "Final read   0 message(s) in 0.0 s, of a run that had 40,246 acknowledged | acknowledged"
            + " and found only by the read (not lost) 0 | 5 topics read to their end",
        FinalReadLine.describe(new FinalReadFigures(true, null, 0, 0, 0, 0, ends), 40_246));
  }
}
