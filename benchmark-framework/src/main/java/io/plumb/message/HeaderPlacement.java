package io.plumb.message;

import java.util.Optional;

/**
 * Where a message carries Plumb's {@link MessageHeader}: at the start of its payload, which every
 * broker carries, or in the broker's per-message metadata (a record header, a message property, a
 * stream field), which leaves the payload to the body alone so that it can be as small as one byte,
 * as the messages of published comparisons are.
 */
public enum HeaderPlacement {
  /** The first {@link MessageHeader#SIZE} bytes of each payload: the body is the rest. */
  PAYLOAD,
  /** The broker's per-message metadata: the payload is the whole body. */
  METADATA;

  /**
   * The result's fact that says where a run's header travelled: {@code payload} or {@code
   * metadata}.
   */
  public static final String FACT = "header";

  /** The fact that says where exactly, and how many bytes each message carried for it. */
  public static final String DETAIL_FACT = "header.detail";

  /**
   * The placement a run uses: the workload's own choice, else the payload when {@code messageSize}
   * holds the header (as every run before metadata did, so their figures stay comparable) and the
   * metadata when it does not.
   */
  public static HeaderPlacement forSize(Optional<HeaderPlacement> chosen, int messageSize) {
    return chosen.orElse(messageSize >= MessageHeader.SIZE ? PAYLOAD : METADATA);
  }

  /** The workload field's spelling: {@code payload} or {@code metadata}. */
  public String fieldValue() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
