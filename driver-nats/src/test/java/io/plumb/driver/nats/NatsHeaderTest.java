package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.plumb.driver.MessageListener;
import io.plumb.message.MessageHeader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Plumb's header as a NATS message header, without a server: the bytes jnats writes for it are the
 * ones {@link NatsHeader} counts, and a message splits back into header and body only when it
 * carries the header.
 */
class NatsHeaderTest {

  private static byte[] header(long sequence) {
    byte[] header = new byte[MessageHeader.SIZE];
    MessageHeader.write(header, MessageHeader.KIND_LOAD, 7, 3, sequence, 123_456_789L);
    return header;
  }

  @Test
  void theHeaderBlockIsWhatJnatsWrites() {
    byte[] header = header(0xFEFF_FFFF_FFFF_FF00L);
    Headers headers = NatsHeader.of(header);
    String expected =
        "NATS/1.0\r\nPlumb:"
            + Base64.getEncoder().withoutPadding().encodeToString(header)
            + "\r\n\r\n";
    assertEquals(expected, new String(headers.getSerialized(), StandardCharsets.US_ASCII));
    assertEquals(55, headers.serializedLength());
    assertEquals(headers.serializedLength(), NatsHeader.BLOCK_BYTES);
    assertEquals(35, NatsHeader.VALUE_CHARS);
    // 'H' + "55 " + at most one more digit of the total size + the 55-byte block.
    assertEquals(60, NatsHeader.WIRE_BYTES);
  }

  @Test
  void aMessageWithTheHeaderReachesTheListenerWithItApart() {
    byte[] header = header(42);
    Message message =
        NatsMessage.builder()
            .subject("t.1")
            .headers(new Headers(NatsHeader.of(header)))
            .data(new byte[] {9})
            .build();
    Calls calls = new Calls();
    NatsHeader.deliver(message, 1, calls);
    assertEquals(List.of("metadata 1 byte(s) on 1"), calls.log);
    assertArrayEquals(header, calls.header);
    assertArrayEquals(new byte[] {9}, calls.payload);
  }

  @Test
  void aMessageWithoutItReachesThePlainReceived() {
    Calls calls = new Calls();
    NatsHeader.deliver(NatsMessage.builder().subject("t.0").data(header(1)).build(), 0, calls);
    // Other headers, such as an application's or a publish option's, are not Plumb's.
    NatsHeader.deliver(
        NatsMessage.builder()
            .subject("t.2")
            .headers(new Headers().put("Nats-Msg-Id", "x"))
            .data(header(2))
            .build(),
        2,
        calls);
    assertEquals(List.of("plain 26 byte(s) on 0", "plain 26 byte(s) on 2"), calls.log);
  }

  /** What the listener was told, in order. */
  private static final class Calls implements MessageListener {
    final List<String> log = new ArrayList<>();
    byte[] header;
    byte[] payload;

    @Override
    public void received(byte[] payload, int partition) {
      log.add("plain " + payload.length + " byte(s) on " + partition);
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      this.header = header;
      this.payload = payload;
      log.add("metadata " + payload.length + " byte(s) on " + partition);
    }

    @Override
    public void failed(Throwable error) {
      log.add("failed " + error);
    }
  }
}
