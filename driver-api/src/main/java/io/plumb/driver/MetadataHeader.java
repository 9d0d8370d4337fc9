package io.plumb.driver;

import java.util.Base64;

/**
 * The framework's header as a driver carries it in a message's metadata ({@link
 * BenchmarkProducer#send(String, byte[], byte[], long, SendListener)}): its size, for the bytes a
 * driver reports in {@link BrokerFactNames#HEADER_METADATA_BYTES}, and a text form for brokers
 * whose metadata values are strings (NATS headers, Pulsar properties).
 */
public final class MetadataHeader {

  /**
   * The header's size in bytes, the same for every message (the framework's MessageHeader.SIZE).
   */
  public static final int SIZE = 26;

  /**
   * Characters of {@link #toText}: unpadded base64 takes 4 per 3 bytes, and one more than its bytes
   * for a last partial group.
   */
  public static final int TEXT_CHARS = (SIZE * 4 + 2) / 3;

  private static final Base64.Encoder ENCODER = Base64.getEncoder().withoutPadding();

  /** The basic decoder takes unpadded input as it is. */
  private static final Base64.Decoder DECODER = Base64.getDecoder();

  private MetadataHeader() {}

  /**
   * The header as text: unpadded base64, every byte of it one ASCII character, so the same size on
   * the wire for every message where a raw byte above 127 would take two in UTF-8, and free of the
   * CR, LF and control bytes that line-based header blocks cannot hold. A new string, so the
   * framework's array may be reused as soon as send() returns.
   */
  public static String toText(byte[] header) {
    return ENCODER.encodeToString(header);
  }

  /**
   * The header back from {@link #toText}.
   *
   * @throws IllegalArgumentException if {@code text} is not base64
   */
  public static byte[] fromText(String text) {
    return DECODER.decode(text);
  }
}
