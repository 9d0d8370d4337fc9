package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.LongString;
import io.plumb.driver.MessageListener;
import io.plumb.driver.MetadataHeader;
import java.util.Map;

/**
 * Plumb's header in an AMQP 0.9.1 message's headers table, when a run carries it outside the body:
 * one entry named {@value #NAME} whose value is the header's bytes, unchanged, as a byte array
 * (field type 'x', which the Java client writes for a {@code byte[]} value). Used by the producer,
 * the consumer and the final read, for classic, quorum and stream queues alike.
 */
final class AmqpHeader {
  static final String NAME = "plumb";

  /**
   * What the entry adds to a message on the wire, for Plumb's 26-byte header, all in the content
   * header frame (the body frame is unchanged): the headers table's own 4-byte length, since
   * without the header a message has no table at all ({@code MessageProperties.MINIMAL_BASIC} and
   * {@code MINIMAL_PERSISTENT_BASIC} set none); the entry's name as a short string (1 length byte
   * and 5 bytes); the type octet 'x'; the value's 4-byte length and 26 bytes. The table's presence
   * flag is a bit of the 16-bit property-flags word that every content header carries, so it adds
   * nothing, and the frame's size field is there either way. 4 + 1 + 5 + 1 + 4 + 26 = 41.
   */
  static final int WIRE_BYTES = 4 + 1 + NAME.length() + 1 + 4 + MetadataHeader.SIZE;

  static final String WHERE = "AMQP 0.9.1 headers-table entry '" + NAME + "' (byte array)";

  private AmqpHeader() {}

  /**
   * {@code plain}'s properties with {@code header} as the only headers-table entry ({@code plain}
   * carries no headers: see {@link PartitionPublisher}). One object and a one-entry map per
   * message, only on this path; basicPublish serializes both into the content header frame before
   * it returns, so the framework's array is not copied.
   */
  static AMQP.BasicProperties properties(AMQP.BasicProperties plain, byte[] header) {
    return plain.builder().headers(Map.of(NAME, header)).build();
  }

  /**
   * Hands a delivery to {@code listener}: with its header apart when its headers table holds one,
   * else as the plain payload it is.
   *
   * <p>The value arrives as the byte array it was sent as; a broker that converted the message on
   * the way (a stream queue stores AMQP 1.0 and converts back for an AMQP 0.9.1 consumer) may hand
   * it back as a long string instead, whose bytes are the same. A value of any other type is not
   * Plumb's header: the body goes on as a plain payload, which the framework counts as not of this
   * run rather than reading a header from the wrong bytes.
   */
  static void deliver(
      Map<String, Object> headers, byte[] body, int partition, MessageListener listener) {
    Object value = headers == null ? null : headers.get(NAME);
    if (value instanceof byte[] header) {
      listener.received(header, body, partition);
    } else if (value instanceof LongString header) {
      listener.received(header.getBytes(), body, partition);
    } else {
      listener.received(body, partition);
    }
  }
}
