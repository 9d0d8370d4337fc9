package io.plumb.load;

import io.plumb.message.MessageHeader;

/**
 * The bytes one producer loop thread hands to drivers' send(), shared by every producer of that
 * loop: a send runs on the loop's thread and the driver has taken what it needs before send()
 * returns, so one buffer per thread serves any number of producers. A body is copied in only when
 * it differs from the one already there; the header is each producer's to write. Where the header
 * travels in the broker's metadata, {@link #header()} holds it instead and bodies go out as the
 * pool has them.
 */
final class PayloadBuffer {
  private byte[] bytes = new byte[0];
  private byte[] bodyHeld;
  private final byte[] header = new byte[MessageHeader.SIZE];

  /** The header's own array, for a header that travels in metadata. */
  byte[] header() {
    return header;
  }

  /** The buffer, holding {@code body} after the header's bytes. */
  byte[] holding(byte[] body) {
    if (body != bodyHeld) {
      if (bytes.length != body.length) {
        bytes = body.clone();
      } else {
        System.arraycopy(
            body, MessageHeader.SIZE, bytes, MessageHeader.SIZE, body.length - MessageHeader.SIZE);
      }
      bodyHeld = body;
    }
    return bytes;
  }
}
