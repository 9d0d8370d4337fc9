package io.plumb.driver;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FinalReaderTest {

  private static FinalReader reader(Optional<String> why) {
    return new FinalReader() {
      @Override
      public Optional<String> whyNoFinalRead() {
        return why;
      }

      @Override
      public String readToEnd(
          String topic, String subscription, MessageListener sink, Duration timeout) {
        requireFinalRead();
        return "end";
      }
    };
  }

  @Test
  void aReadWhereNoneCanBeMadeIsRefusedWithTheReason() {
    FinalReader none = reader(Optional.of("core NATS keeps no messages"));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> none.readToEnd("t", "s", null, null));
    assertEquals("no final read: core NATS keeps no messages", e.getMessage());
    assertDoesNotThrow(() -> reader(Optional.empty()).readToEnd("t", "s", null, null));
  }
}
