package io.plumb.driver.redis;

import java.nio.charset.StandardCharsets;

/**
 * Encodes one message's command into a batch buffer. Everything but the payload, the header and the
 * key is encoded once per partition when the producer is created.
 */
interface CommandEncoder {

  /** Why a Pub/Sub producer refuses a send with the header apart. */
  String PUBLISH_HAS_NO_FIELDS =
      "Redis Pub/Sub carries no per-message fields for Plumb's header (PUBLISH sends one message"
          + " body); use mode streams";

  void encode(RespBuffer out, int partition, String key, byte[] payload);

  /**
   * The same with Plumb's header as its own field beside the payload (see {@link StreamHeader}).
   * Only for an encoder whose {@link #carriesHeader} is true.
   */
  void encode(RespBuffer out, int partition, String key, byte[] header, byte[] payload);

  /** Whether the command has a field for Plumb's header: XADD does, PUBLISH does not. */
  boolean carriesHeader();

  /** Arguments of a keyless XADD without the header: XADD, stream, [MAXLEN ~ n], *, p, payload. */
  static int xaddArguments(long maxLen) {
    return maxLen > 0 ? 8 : 5;
  }

  /**
   * XADD {@code <stream> [MAXLEN ~ n] * p <payload> [h <header>] [k <key>]}: the key and the header
   * travel as real fields of the entry. Without the header the command is exactly what it was
   * before the header field existed; with it, the array header counts two more arguments and the
   * field name and header follow the payload (the bytes this adds: {@link StreamHeader#wireBytes}).
   */
  static CommandEncoder xadd(byte[][] streams, long maxLen) {
    byte[][] tail =
        maxLen > 0
            ? new byte[][] {
              StreamFields.MAXLEN,
              StreamFields.APPROXIMATE,
              Long.toString(maxLen).getBytes(StandardCharsets.US_ASCII),
              StreamFields.AUTO_ID,
              StreamFields.PAYLOAD
            }
            : new byte[][] {StreamFields.AUTO_ID, StreamFields.PAYLOAD};
    // XADD, stream, the tail, then the payload (StreamHeaderTest checks this is xaddArguments):
    // and with a key, "k" and the key; with the header, "h" and the header.
    int arguments = 2 + tail.length + 1;
    byte[][] keyless = new byte[streams.length][];
    // Also the prefix of a keyless XADD with the header: two more arguments either way.
    byte[][] keyed = new byte[streams.length][];
    byte[][] keyedWithHeader = new byte[streams.length][];
    for (int p = 0; p < streams.length; p++) {
      byte[][] leading = new byte[2 + tail.length][];
      leading[0] = StreamFields.XADD;
      leading[1] = streams[p];
      System.arraycopy(tail, 0, leading, 2, tail.length);
      keyless[p] = RespBuffer.prefix(arguments, leading);
      keyed[p] = RespBuffer.prefix(arguments + 2, leading);
      keyedWithHeader[p] = RespBuffer.prefix(arguments + 4, leading);
    }
    byte[] keyField = RespBuffer.bulk(StreamFields.KEY);
    byte[] headerField = RespBuffer.bulk(StreamFields.HEADER);
    return new CommandEncoder() {
      @Override
      public void encode(RespBuffer out, int partition, String key, byte[] payload) {
        if (key == null) {
          out.write(keyless[partition]);
          out.writeBulk(payload);
        } else {
          out.write(keyed[partition]);
          out.writeBulk(payload);
          out.write(keyField);
          out.writeBulk(key);
        }
      }

      @Override
      public void encode(RespBuffer out, int partition, String key, byte[] header, byte[] payload) {
        out.write(key == null ? keyed[partition] : keyedWithHeader[partition]);
        out.writeBulk(payload);
        out.write(headerField);
        out.writeBulk(header);
        if (key != null) {
          out.write(keyField);
          out.writeBulk(key);
        }
      }

      @Override
      public boolean carriesHeader() {
        return true;
      }
    };
  }

  /** PUBLISH {@code <channel> <payload>}: Pub/Sub messages carry no key; it picked the channel. */
  static CommandEncoder publish(byte[][] channels) {
    byte[][] prefixes = new byte[channels.length][];
    for (int p = 0; p < channels.length; p++) {
      prefixes[p] = RespBuffer.prefix(3, StreamFields.PUBLISH, channels[p]);
    }
    return new CommandEncoder() {
      @Override
      public void encode(RespBuffer out, int partition, String key, byte[] payload) {
        out.write(prefixes[partition]);
        out.writeBulk(payload);
      }

      /** A Pub/Sub message is the channel's bytes alone: there is no field to put the header in. */
      @Override
      public void encode(RespBuffer out, int partition, String key, byte[] header, byte[] payload) {
        throw new UnsupportedOperationException(PUBLISH_HAS_NO_FIELDS);
      }

      @Override
      public boolean carriesHeader() {
        return false;
      }
    };
  }
}
