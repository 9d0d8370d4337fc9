package io.plumb.driver.redis;

import io.plumb.driver.MessageListener;
import io.plumb.driver.MetadataHeader;
import java.util.Arrays;
import java.util.List;

/**
 * Plumb's header as a field of the stream entry, when a run carries it outside the payload: the
 * entry holds {@code p <body> h <header> [k <key>]}, the header's bytes unchanged. Pub/Sub has no
 * per-message fields (PUBLISH takes a channel and one message), so only streams mode carries it.
 */
final class StreamHeader {
  static final String NAME = "h";

  static final String WHERE = "Redis stream entry field '" + NAME + "'";

  private StreamHeader() {}

  /**
   * What the header adds to one XADD on the wire, in RESP, for Plumb's 26-byte header: two more
   * bulk strings, the field name {@code $1\r\nh\r\n} (7 bytes) and the value {@code $26\r\n<26
   * bytes>\r\n} (33 bytes), so 40; and two more arguments in the command's array header {@code
   * *<n>\r\n}, which grows by one digit when n crosses 10. With MAXLEN (the shipped files) a
   * keyless XADD goes from 8 arguments to 10 ({@code *8} to {@code *10}): 41 bytes; a keyed one
   * from 10 to 12 and one without MAXLEN from 5 or 7 to 7 or 9: 40. The fact is one number, so it
   * is the larger of the keyless and keyed figures for the file's {@code maxLen} (the driver does
   * not know whether the workload has keys). The Jedis producer sends the same arguments, so the
   * same bytes. A consumer's XREADGROUP (or XREAD, XRANGE) reply carries the entry's field list,
   * whose array header goes from {@code *2} or {@code *4} to {@code *4} or {@code *6}: 40 more
   * bytes per entry.
   */
  static int wireBytes(long maxLen) {
    int keyless = CommandEncoder.xaddArguments(maxLen);
    int growth =
        Math.max(digits(keyless + 2) - digits(keyless), digits(keyless + 4) - digits(keyless + 2));
    return bulkBytes(NAME.length()) + bulkBytes(MetadataHeader.SIZE) + growth;
  }

  /** {@code $<length>\r\n<value>\r\n}. */
  private static int bulkBytes(int length) {
    return 1 + digits(length) + 2 + length + 2;
  }

  private static int digits(int n) {
    return Integer.toString(n).length();
  }

  /**
   * Hands a stream entry's body to {@code listener}: with its header apart when the entry has the
   * header field, as a plain payload when not. An entry without a payload field (null fields: it
   * was trimmed after delivery) is skipped. Parsed straight from the reply's field list (RESP2:
   * name, value, name, value...), since this runs for every entry.
   */
  static void deliver(List<?> fields, int partition, MessageListener listener) {
    if (fields == null) {
      return;
    }
    byte[] payload = null;
    byte[] header = null;
    for (int i = 0; i + 1 < fields.size(); i += 2) {
      byte[] name = (byte[]) fields.get(i);
      if (Arrays.equals(name, StreamFields.PAYLOAD)) {
        payload = (byte[]) fields.get(i + 1);
      } else if (Arrays.equals(name, StreamFields.HEADER)) {
        header = (byte[]) fields.get(i + 1);
      }
    }
    if (payload == null) {
      return;
    }
    if (header == null) {
      listener.received(payload, partition);
    } else {
      listener.received(header, payload, partition);
    }
  }
}
