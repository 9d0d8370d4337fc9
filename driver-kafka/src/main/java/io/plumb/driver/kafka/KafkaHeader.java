package io.plumb.driver.kafka;

import io.plumb.driver.MessageListener;
import io.plumb.driver.MetadataHeader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Plumb's header as a Kafka record header, when a run carries it outside the payload: one header
 * named {@value #NAME} whose value is the header's bytes, unchanged.
 */
final class KafkaHeader {
  static final String NAME = "plumb";

  /**
   * What the record header adds to a record on the wire, for Plumb's 26-byte header: the name's
   * length (a one-byte varint) and 5 bytes, the value's length (one byte) and 26 bytes. The
   * record's header count is a varint that stays one byte.
   */
  static final int WIRE_BYTES = 1 + NAME.length() + 1 + MetadataHeader.SIZE;

  static final String WHERE = "Kafka record header '" + NAME + "'";

  private KafkaHeader() {}

  /**
   * The record's headers for {@code header}. KafkaProducer.send writes them into its batch before
   * returning, so the framework's array is not copied.
   */
  static RecordHeaders of(byte[] header) {
    return new RecordHeaders(new Header[] {new RecordHeader(NAME, header)});
  }

  /** Hands {@code record} to {@code listener}: with its header apart when it carries one. */
  static void deliver(ConsumerRecord<String, byte[]> record, MessageListener listener) {
    Header header = record.headers().lastHeader(NAME);
    if (header == null) {
      listener.received(record.value(), record.partition());
    } else {
      listener.received(header.value(), record.value(), record.partition());
    }
  }
}
