package io.plumb.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MessageHeaderTest {
  @Test
  void readsBackWhatWasWritten() {
    byte[] payload = new byte[100];
    MessageHeader.write(
        payload, MessageHeader.KIND_LOAD, 42, 7, 123_456_789_012L, 1_700_000_000_123_456_789L);
    assertTrue(MessageHeader.isFromRun(payload, 42));
    assertEquals(MessageHeader.KIND_LOAD, MessageHeader.kind(payload));
    assertEquals(7, MessageHeader.producerId(payload));
    assertEquals(123_456_789_012L, MessageHeader.sequence(payload));
    assertEquals(1_700_000_000_123_456_789L, MessageHeader.intendedSendTime(payload));
  }

  @Test
  void leavesTheBodyAfterTheHeaderAlone() {
    byte[] payload = new byte[40];
    java.util.Arrays.fill(payload, (byte) 9);
    MessageHeader.write(payload, MessageHeader.KIND_PROBE, 1, 2, 3, 4);
    for (int i = MessageHeader.SIZE; i < payload.length; i++) {
      assertEquals(9, payload[i]);
    }
  }

  @Test
  void recognisesMessagesOfOtherRunsAndForeignBytes() {
    byte[] payload = new byte[MessageHeader.SIZE];
    MessageHeader.write(payload, MessageHeader.KIND_LOAD, 1, 0, 0, 0);
    assertFalse(MessageHeader.isFromRun(payload, 2));
    assertFalse(MessageHeader.isFromRun(new byte[MessageHeader.SIZE], 1));
    assertFalse(MessageHeader.isFromRun(new byte[5], 1));
    assertFalse(MessageHeader.isFromRun(null, 1));
  }
}
