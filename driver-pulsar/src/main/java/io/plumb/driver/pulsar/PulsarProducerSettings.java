package io.plumb.driver.pulsar;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;

/**
 * OMB's {@code producer} section, plus batch size limits and the send timeout.
 *
 * @param batchingEnabled group messages into batches per partition
 * @param batchingMaxPublishDelayMs how long a batch may wait to fill
 * @param batchingMaxBytes a batch's size limit
 * @param batchingMaxMessages a batch's message count limit
 * @param blockIfQueueFull block send() when the pending queue is full, rather than fail the send
 * @param pendingQueueSize messages awaiting acknowledgement per producer (0: bounded only by the
 *     client's memory limit)
 * @param sendTimeoutMs fail a send not acknowledged in this time (0: never)
 */
public record PulsarProducerSettings(
    Boolean batchingEnabled,
    Integer batchingMaxPublishDelayMs,
    Integer batchingMaxBytes,
    Integer batchingMaxMessages,
    Boolean blockIfQueueFull,
    Integer pendingQueueSize,
    Integer sendTimeoutMs) {

  public PulsarProducerSettings {
    batchingEnabled = batchingEnabled == null || batchingEnabled;
    batchingMaxPublishDelayMs = batchingMaxPublishDelayMs == null ? 1 : batchingMaxPublishDelayMs;
    batchingMaxBytes = batchingMaxBytes == null ? 128 * 1024 : batchingMaxBytes;
    batchingMaxMessages = batchingMaxMessages == null ? 1000 : batchingMaxMessages;
    blockIfQueueFull = blockIfQueueFull == null || blockIfQueueFull;
    pendingQueueSize = pendingQueueSize == null ? 0 : pendingQueueSize;
    sendTimeoutMs = sendTimeoutMs == null ? 30_000 : sendTimeoutMs;
  }

  /** OMB's {@code producer} section. */
  static PulsarProducerSettings read(DriverSettings s) throws DriverConfigException {
    return new PulsarProducerSettings(
        s.bool("batchingEnabled").orElse(null),
        s.integer("batchingMaxPublishDelayMs").orElse(null),
        s.integer("batchingMaxBytes").orElse(null),
        s.integer("batchingMaxMessages").orElse(null),
        s.bool("blockIfQueueFull").orElse(null),
        s.integer("pendingQueueSize").orElse(null),
        s.integer("sendTimeoutMs").orElse(null));
  }
}
