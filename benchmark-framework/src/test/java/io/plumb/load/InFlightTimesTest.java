package io.plumb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.stats.PublishRecorder;
import org.junit.jupiter.api.Test;

class InFlightTimesTest {
  @Test
  void returnsTheSendTimeOfEachSequence() {
    InFlightTimes times = new InFlightTimes(8);
    for (long sequence = 0; sequence < 8; sequence++) {
      times.put(sequence, 100 + sequence);
    }
    for (long sequence = 0; sequence < 8; sequence++) {
      assertEquals(100 + sequence, times.sentAt(sequence));
    }
  }

  @Test
  void reportsUnknownOnceASlotWasReusedInsteadOfAnotherMessagesTime() {
    InFlightTimes times = new InFlightTimes(8);
    for (long sequence = 0; sequence < 9; sequence++) {
      times.put(sequence, 100 + sequence);
    }
    assertEquals(PublishRecorder.UNKNOWN, times.sentAt(0));
    assertEquals(108, times.sentAt(8));
    assertEquals(101, times.sentAt(1));
  }
}
