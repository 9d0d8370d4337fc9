package io.plumb.driver.redis;

import java.nio.charset.StandardCharsets;

/**
 * Encodes one message's command into a batch buffer. Everything but the payload and the key is
 * encoded once per partition when the producer is created.
 */
interface CommandEncoder {

  void encode(RespBuffer out, int partition, String key, byte[] payload);

  /**
   * XADD {@code <stream> [MAXLEN ~ n] * p <payload> [k <key>]}: the key travels as a real field of
   * the entry.
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
    // XADD, stream, the tail, then the payload: and with a key, "k" and the key.
    int arguments = 2 + tail.length + 1;
    byte[][] keyless = new byte[streams.length][];
    byte[][] keyed = new byte[streams.length][];
    for (int p = 0; p < streams.length; p++) {
      byte[][] leading = new byte[2 + tail.length][];
      leading[0] = StreamFields.XADD;
      leading[1] = streams[p];
      System.arraycopy(tail, 0, leading, 2, tail.length);
      keyless[p] = RespBuffer.prefix(arguments, leading);
      keyed[p] = RespBuffer.prefix(arguments + 2, leading);
    }
    byte[] keyField = RespBuffer.bulk(StreamFields.KEY);
    return (out, partition, key, payload) -> {
      if (key == null) {
        out.write(keyless[partition]);
        out.writeBulk(payload);
      } else {
        out.write(keyed[partition]);
        out.writeBulk(payload);
        out.write(keyField);
        out.writeBulk(key);
      }
    };
  }

  /** PUBLISH {@code <channel> <payload>}: Pub/Sub messages carry no key; it picked the channel. */
  static CommandEncoder publish(byte[][] channels) {
    byte[][] prefixes = new byte[channels.length][];
    for (int p = 0; p < channels.length; p++) {
      prefixes[p] = RespBuffer.prefix(3, StreamFields.PUBLISH, channels[p]);
    }
    return (out, partition, key, payload) -> {
      out.write(prefixes[partition]);
      out.writeBulk(payload);
    };
  }
}
