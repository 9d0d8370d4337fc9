package io.plumb.driver.rabbitmq;

import java.util.Map;

/** RabbitMQ's queue types, named as OMB's {@code queueType} field names them. */
public enum QueueType {
  /** Single-node queue; durable or transient as configured. */
  CLASSIC,
  /** Raft-replicated queue; always durable, every message written to disk. */
  QUORUM,
  /** Append-only log read non-destructively from an offset; always durable. */
  STREAM;

  /** The {@code x-queue-type} argument the broker expects. */
  String brokerName() {
    return name().toLowerCase();
  }

  /** Queue declaration arguments for this type. */
  Map<String, Object> declareArguments() {
    return Map.of("x-queue-type", brokerName());
  }

  /** Quorum queues and streams exist only as durable queues. */
  boolean alwaysDurable() {
    return this != CLASSIC;
  }
}
