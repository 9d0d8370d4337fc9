package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.Message;
import com.rabbitmq.stream.MessageBuilder;
import io.plumb.driver.MessageListener;
import io.plumb.driver.MetadataHeader;
import java.util.Map;

/**
 * Plumb's header as an AMQP 1.0 application property of a stream-protocol message, when a run
 * carries it outside the body: one property named {@value #NAME} whose value is the header's bytes,
 * unchanged, as AMQP 1.0 binary. Used by the producer, the subscription's readers and the final
 * read.
 */
final class StreamHeader {
  static final String NAME = "plumb";

  /**
   * What the property adds to a message on the wire, for Plumb's 26-byte header, as the client's
   * default codec (Qpid Proton-J) encodes the AMQP 1.0 message the stream protocol carries: an
   * application-properties section, which a message without the header does not have at all: its
   * descriptor (0x00, smallulong 0x53, code 0x74: 3 bytes), a map8 (constructor 0xc1, size byte,
   * count byte: 3 bytes) holding the key as str8-utf8 (0xa1, length byte, 5 bytes: 7) and the value
   * as vbin8 (0xa0, length byte, 26 bytes: 28). The stream protocol's per-message size field is
   * there either way. 3 + 3 + 7 + 28 = 41.
   */
  static final int WIRE_BYTES = 3 + 3 + (2 + NAME.length()) + (2 + MetadataHeader.SIZE);

  static final String WHERE = "AMQP 1.0 application property '" + NAME + "' (binary)";

  private StreamHeader() {}

  /**
   * The message for {@code header} and {@code payload}. The client keeps the message, and with it
   * both arrays, until its batch is encoded after send() returns, so both are copied (as the plain
   * send copies its payload).
   */
  static Message message(MessageBuilder builder, byte[] header, byte[] payload) {
    return builder
        .addData(payload.clone())
        .applicationProperties()
        .entry(NAME, header.clone())
        .messageBuilder()
        .build();
  }

  /**
   * Hands {@code message} to {@code listener}: with its header apart when its application
   * properties hold one as binary (which the codec decodes to a fresh byte array), else as the
   * plain payload it is.
   */
  static void deliver(Message message, int partition, MessageListener listener) {
    Map<String, Object> properties = message.getApplicationProperties();
    Object value = properties == null ? null : properties.get(NAME);
    if (value instanceof byte[] header) {
      listener.received(header, message.getBodyAsBinary(), partition);
    } else {
      listener.received(message.getBodyAsBinary(), partition);
    }
  }
}
