package io.plumb.driver.redis;

import java.nio.charset.StandardCharsets;

/** The constant parts of stream commands and entries, encoded once. */
final class StreamFields {

  private StreamFields() {}

  /** Entry field holding the message bytes. */
  static final byte[] PAYLOAD = bytes("p");

  /** Entry field holding the message key, when the workload has keys. */
  static final byte[] KEY = bytes("k");

  /**
   * Entry field holding Plumb's header, when the run carries it outside the payload (see {@link
   * StreamHeader}). One byte, like the others, to keep what it adds per entry small.
   */
  static final byte[] HEADER = bytes(StreamHeader.NAME);

  static final byte[] XADD = bytes("XADD");
  static final byte[] PUBLISH = bytes("PUBLISH");
  static final byte[] MAXLEN = bytes("MAXLEN");
  static final byte[] APPROXIMATE = bytes("~");
  static final byte[] AUTO_ID = bytes("*");
  static final byte[] NEW_ENTRIES = bytes(">");

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
