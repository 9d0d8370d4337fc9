package io.plumb.driver.pulsar;

import io.plumb.driver.MessageListener;
import io.plumb.driver.MetadataHeader;
import org.apache.pulsar.client.api.Message;

/**
 * Plumb's header as a Pulsar message property, when a run carries it outside the payload: one
 * property named {@value #NAME} whose value is the header's bytes in unpadded base64. Property
 * values are strings (protobuf {@code string}, so UTF-8 on the wire): base64 keeps every byte one
 * ASCII character, where the raw bytes read as Latin-1 would take two bytes each above 127 and vary
 * in size from message to message.
 */
final class PulsarHeader {
  static final String NAME = "plumb";

  /** The property's value: {@link MetadataHeader#toText}, 35 characters. */
  static final int VALUE_CHARS = MetadataHeader.TEXT_CHARS;

  /**
   * What the property adds to a message on the wire, for Plumb's 26-byte header: 46 bytes. A
   * property is a protobuf {@code KeyValue {string key = 1; string value = 2}} in a repeated field:
   * {@code MessageMetadata.properties} (field 4) for a message sent alone, {@code
   * SingleMessageMetadata.properties} (field 1) for each message of a batch (the client copies no
   * property into the batch's own metadata). Either field's tag is one byte, and the KeyValue's
   * length (44) is a one-byte varint; inside it the key costs a tag byte, a length byte and 5
   * bytes, the value a tag byte, a length byte and 35 characters: 1 + 1 + (1 + 1 + 5) + (1 + 1 +
   * 35) = 46.
   */
  static final int WIRE_BYTES = 1 + 1 + (1 + 1 + NAME.length()) + (1 + 1 + VALUE_CHARS);

  static final String WHERE = "Pulsar message property '" + NAME + "'";

  private PulsarHeader() {}

  /**
   * The property's value for {@code header}. A new string, so the framework's array may be reused
   * as soon as send() returns.
   */
  static String encode(byte[] header) {
    return MetadataHeader.toText(header);
  }

  /**
   * Hands {@code message} to {@code listener}: with its header apart when it carries the property.
   * A message without it (the plain path) costs one look-up in the client's empty property map.
   */
  static void deliver(Message<?> message, int partition, MessageListener listener) {
    String value = message.getProperty(NAME);
    if (value != null) {
      byte[] header;
      try {
        header = MetadataHeader.fromText(value);
      } catch (IllegalArgumentException notBase64) {
        header = null;
      }
      if (header != null) {
        listener.received(header, message.getData(), partition);
        return;
      }
      // A property of that name that is not base64 was not written by Plumb: handed on as a
      // plain message, which the framework counts as foreign unless its payload carries a header.
    }
    listener.received(message.getData(), partition);
  }
}
