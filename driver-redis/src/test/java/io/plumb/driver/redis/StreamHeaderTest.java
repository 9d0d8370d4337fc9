package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.MessageListener;
import io.plumb.driver.MetadataHeader;
import io.plumb.message.MessageHeader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Plumb's header as a stream entry field, without a server: the exact RESP bytes of an XADD that
 * carries it, the wire-bytes fact checked against those bytes, and which listener method an entry
 * reaches.
 */
class StreamHeaderTest {

  private static final byte[][] STREAMS = {StreamFields.bytes("t-0"), StreamFields.bytes("t-1")};

  @Test
  void headerSizeIsPlumbs() {
    assertEquals(MessageHeader.SIZE, MetadataHeader.SIZE);
  }

  @Test
  void encodesTheHeaderAsAFieldAfterThePayload() {
    RespBuffer out = new RespBuffer(16);
    CommandEncoder.xadd(STREAMS, 100)
        .encode(out, 1, "key", StreamFields.bytes("HDR"), StreamFields.bytes("a"));
    CommandEncoder.xadd(STREAMS, 0).encode(out, 0, null, StreamFields.bytes("HH"), new byte[0]);
    assertEquals(
        "*12\r\n$4\r\nXADD\r\n$3\r\nt-1\r\n$6\r\nMAXLEN\r\n$1\r\n~\r\n$3\r\n100\r\n$1\r\n*\r\n"
            + "$1\r\np\r\n$1\r\na\r\n$1\r\nh\r\n$3\r\nHDR\r\n$1\r\nk\r\n$3\r\nkey\r\n"
            + "*7\r\n$4\r\nXADD\r\n$3\r\nt-0\r\n$1\r\n*\r\n$1\r\np\r\n$0\r\n\r\n"
            + "$1\r\nh\r\n$2\r\nHH\r\n",
        out.toString());
  }

  @Test
  void argumentCountAgreesWithTheEncoder() {
    for (long maxLen : new long[] {0, 100}) {
      RespBuffer out = new RespBuffer(16);
      CommandEncoder.xadd(STREAMS, maxLen).encode(out, 0, null, new byte[0]);
      String command = out.toString();
      assertEquals(
          "*" + CommandEncoder.xaddArguments(maxLen),
          command.substring(0, command.indexOf('\r')),
          command);
    }
  }

  /**
   * The fact is what the header adds to the XADD of the same message: 40 bytes, 41 for a keyless
   * XADD with MAXLEN (its argument count goes from 8 to 10), and the fact is the larger figure.
   */
  @Test
  void wireBytesAreWhatTheHeaderAddsToTheCommand() {
    byte[] header = new byte[MessageHeader.SIZE];
    byte[] body = {42};
    for (long maxLen : new long[] {0, 100_000}) {
      CommandEncoder encoder = CommandEncoder.xadd(STREAMS, maxLen);
      int most = 0;
      for (String key : Arrays.asList(null, "key-1")) {
        RespBuffer plain = new RespBuffer(16);
        encoder.encode(plain, 0, key, body);
        RespBuffer withHeader = new RespBuffer(16);
        encoder.encode(withHeader, 0, key, header, body);
        int added = withHeader.length() - plain.length();
        int expected = maxLen > 0 && key == null ? 41 : 40;
        assertEquals(expected, added, "maxLen " + maxLen + ", key " + key);
        most = Math.max(most, added);
      }
      assertEquals(most, StreamHeader.wireBytes(maxLen), "maxLen " + maxLen);
    }
  }

  @Test
  void publishHasNoFieldForTheHeader() {
    CommandEncoder publish = CommandEncoder.publish(STREAMS);
    assertFalse(publish.carriesHeader());
    assertTrue(CommandEncoder.xadd(STREAMS, 0).carriesHeader());
    assertThrows(
        UnsupportedOperationException.class,
        () -> publish.encode(new RespBuffer(16), 0, null, new byte[26], new byte[1]));
  }

  @Test
  void anEntryWithTheHeaderFieldReachesTheListenerWithItsHeaderApart() {
    Calls calls = new Calls();
    byte[] header = StreamFields.bytes("header");
    byte[] body = {7};
    StreamHeader.deliver(fields("p", body, "h", header, "k", StreamFields.bytes("key")), 2, calls);
    StreamHeader.deliver(fields("h", header, "p", body), 3, calls); // any field order
    StreamHeader.deliver(fields("p", body, "k", StreamFields.bytes("key")), 1, calls);
    StreamHeader.deliver(null, 0, calls); // trimmed after delivery: nothing to hand over
    StreamHeader.deliver(fields("h", header), 0, calls); // no body: not a message of this driver
    assertEquals(List.of("header+body on 2", "header+body on 3", "plain on 1"), calls.seen);
    assertArrayEquals(header, calls.headers.get(0));
    assertArrayEquals(body, calls.payloads.get(0));
    assertArrayEquals(body, calls.payloads.get(2));
  }

  private static List<Object> fields(Object... namesAndValues) {
    List<Object> fields = new ArrayList<>();
    for (Object o : namesAndValues) {
      fields.add(o instanceof String s ? StreamFields.bytes(s) : o);
    }
    return fields;
  }

  private static final class Calls implements MessageListener {
    final List<String> seen = new ArrayList<>();
    final List<byte[]> headers = new ArrayList<>();
    final List<byte[]> payloads = new ArrayList<>();

    @Override
    public void received(byte[] payload, int partition) {
      seen.add("plain on " + partition);
      headers.add(null);
      payloads.add(payload);
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      seen.add("header+body on " + partition);
      headers.add(header);
      payloads.add(payload);
    }

    @Override
    public void failed(Throwable error) {
      throw new AssertionError(error);
    }
  }
}
