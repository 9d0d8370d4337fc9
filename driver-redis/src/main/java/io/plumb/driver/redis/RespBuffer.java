package io.plumb.driver.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that commands are encoded into as RESP (the Redis wire protocol), so a
 * whole pipeline batch leaves in one socket write and no per-message objects are allocated.
 */
final class RespBuffer {

  private static final byte[] CRLF = {'\r', '\n'};

  private byte[] bytes;
  private int length;

  RespBuffer(int capacity) {
    this.bytes = new byte[Math.max(capacity, 64)];
  }

  byte[] array() {
    return bytes;
  }

  int length() {
    return length;
  }

  void clear() {
    length = 0;
  }

  /** Appends bytes that are already RESP (a precomputed command prefix). */
  void write(byte[] encoded) {
    ensure(encoded.length);
    System.arraycopy(encoded, 0, bytes, length, encoded.length);
    length += encoded.length;
  }

  /** Appends {@code $<length>\r\n<value>\r\n}. */
  void writeBulk(byte[] value) {
    ensure(value.length + 16);
    bytes[length++] = '$';
    writeDecimal(value.length);
    System.arraycopy(value, 0, bytes, length, value.length);
    length += value.length;
    bytes[length++] = '\r';
    bytes[length++] = '\n';
  }

  /** Appends a string as a UTF-8 bulk string; ASCII (the usual key) is encoded in place. */
  void writeBulk(String value) {
    int n = value.length();
    for (int i = 0; i < n; i++) {
      if (value.charAt(i) >= 0x80) {
        writeBulk(value.getBytes(StandardCharsets.UTF_8));
        return;
      }
    }
    ensure(n + 16);
    bytes[length++] = '$';
    writeDecimal(n);
    for (int i = 0; i < n; i++) {
      bytes[length++] = (byte) value.charAt(i);
    }
    bytes[length++] = '\r';
    bytes[length++] = '\n';
  }

  private void writeDecimal(int value) {
    int start = length;
    do {
      bytes[length++] = (byte) ('0' + value % 10);
      value /= 10;
    } while (value > 0);
    for (int i = start, j = length - 1; i < j; i++, j--) {
      byte b = bytes[i];
      bytes[i] = bytes[j];
      bytes[j] = b;
    }
    bytes[length++] = '\r';
    bytes[length++] = '\n';
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }

  /** The RESP encoding of a command's constant leading part: array header and bulk strings. */
  static byte[] prefix(int arguments, byte[]... leading) {
    RespBuffer b = new RespBuffer(64);
    b.write(("*" + arguments).getBytes(StandardCharsets.US_ASCII));
    b.write(CRLF);
    for (byte[] part : leading) {
      b.writeBulk(part);
    }
    return Arrays.copyOf(b.bytes, b.length);
  }

  /** One bulk string, encoded. */
  static byte[] bulk(byte[] value) {
    RespBuffer b = new RespBuffer(value.length + 16);
    b.writeBulk(value);
    return Arrays.copyOf(b.bytes, b.length);
  }

  @Override
  public String toString() {
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }
}
