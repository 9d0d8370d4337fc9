package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.MessageListener;
import io.plumb.driver.MetadataHeader;
import java.util.Map;

/**
 * Plumb's header as a NATS message header, when a run carries it outside the payload: one header
 * named {@value #NAME} whose value is the header's 26 bytes in unpadded base64 (NATS header values
 * are text: a line of the header block, so CR, LF and most control bytes cannot appear raw). Used
 * by both core NATS and JetStream, whose stream keeps the header block with the message and hands
 * it back to consumers and to the final read.
 */
final class NatsHeader {
  static final String NAME = "Plumb";

  static final String WHERE = "NATS message header '" + NAME + "'";

  /** The header's value: {@link MetadataHeader#toText}, 35 characters. */
  static final int VALUE_CHARS = MetadataHeader.TEXT_CHARS;

  /**
   * The header block jnats writes after HPUB's command line: the version line {@code NATS/1.0\r\n}
   * (10 bytes), the line {@code Plumb:<35 characters>\r\n} (jnats writes no space after the colon:
   * 5 + 1 + 35 + 2 = 43 bytes) and the empty line that ends the block (2 bytes): 55 bytes. {@code
   * NatsHeaderTest} checks it against jnats's own serialized length.
   */
  static final int BLOCK_BYTES = "NATS/1.0\r\n".length() + NAME.length() + 1 + VALUE_CHARS + 2 + 2;

  /**
   * What a message with the header adds on the wire, publisher to server, over the same body sent
   * plain: the header block ({@value #BLOCK_BYTES}), and on the command line {@code HPUB <subject>
   * [reply] <header bytes> <total bytes>} against {@code PUB <subject> [reply] <bytes>}: the 'H' (1
   * byte), the header-size field and its space ("55 ", 3 bytes), and one more digit in the total
   * size field when header block plus body reach the next power of ten and the body alone does not
   * (bodies of 1-9 bytes, 45-99, 945-999, ...; for others the addition is one byte less). At most 1
   * + 3 + 1 + 55 = 60 bytes. The server's delivery (HMSG against MSG) grows by as much, per
   * subscriber; a JetStream stream stores the block with the message.
   */
  static final int WIRE_BYTES = 1 + String.valueOf(BLOCK_BYTES).length() + 1 + 1 + BLOCK_BYTES;

  /**
   * One Headers per sending thread, overwritten for every message: jnats copies the headers it is
   * given into a read-only copy of its own before publish returns (NatsPublishableMessage's
   * constructor, on the caller's thread), so a new object per message would be copied and dropped
   * at once. Per thread rather than per producer: a worker may hold millions of producers, each
   * sending from one thread, and the object is used only within one send.
   */
  private static final ThreadLocal<Headers> SCRATCH = ThreadLocal.withInitial(Headers::new);

  private NatsHeader() {}

  /**
   * Whether {@code connection} can carry message headers: the server says so in its INFO (nats-
   * server 2.2 and later, unless configured without) and the client did not turn them off.
   */
  static boolean supported(Connection connection) {
    return connection.getServerInfo().isHeadersSupported()
        && !connection.getOptions().isNoHeaders();
  }

  /**
   * Reports that Plumb's header can travel as a message header, in core NATS and JetStream alike,
   * when both connections carry headers: the publisher's to send them, the consumer's to receive
   * them.
   */
  static void addFacts(Map<String, String> facts, Connection publish, Connection consume) {
    if (supported(publish) && supported(consume)) {
      facts.put(BrokerFactNames.HEADER_METADATA, WHERE);
      facts.put(BrokerFactNames.HEADER_METADATA_BYTES, String.valueOf(WIRE_BYTES));
    }
  }

  /**
   * The headers for {@code header}, to hand straight to one publish on this thread: the next call
   * on the thread overwrites them.
   */
  static Headers of(byte[] header) {
    return SCRATCH.get().put(NAME, MetadataHeader.toText(header));
  }

  /** Hands {@code message} to {@code listener}: with its header apart when it carries one. */
  static void deliver(Message message, int partition, MessageListener listener) {
    Headers headers = message.getHeaders();
    String value = headers == null ? null : headers.getFirst(NAME);
    if (value == null) {
      listener.received(message.getData(), partition);
    } else {
      listener.received(MetadataHeader.fromText(value), message.getData(), partition);
    }
  }
}
