package io.plumb.driver.rabbitmq;

import java.util.HashMap;
import java.util.Map;

/** RabbitMQ's queue types, named as OMB's {@code queueType} field names them. */
public enum QueueType {
  /** Single-node queue; durable or transient as configured. Not replicated. */
  CLASSIC(null),
  /** Raft-replicated queue; always durable, every message written to disk. */
  QUORUM("x-quorum-initial-group-size"),
  /** Append-only log read non-destructively from an offset; always durable, replicated. */
  STREAM("x-initial-cluster-size");

  private final String replicasArgument;

  QueueType(String replicasArgument) {
    this.replicasArgument = replicasArgument;
  }

  /** The {@code x-queue-type} argument the broker expects. */
  String brokerName() {
    return name().toLowerCase();
  }

  /** The declaration argument that sets how many nodes hold a copy, or null (classic queues). */
  String replicasArgument() {
    return replicasArgument;
  }

  /**
   * Queue declaration arguments for this type.
   *
   * @param replicas copies to ask for, or null for the broker's default (every node, for quorum
   *     queues and streams)
   */
  Map<String, Object> declareArguments(Integer replicas) {
    Map<String, Object> arguments = new HashMap<>();
    arguments.put("x-queue-type", brokerName());
    if (replicas != null) {
      arguments.put(replicasArgument, replicas);
    }
    return Map.copyOf(arguments);
  }

  /** Quorum queues and streams exist only as durable queues. */
  boolean alwaysDurable() {
    return this != CLASSIC;
  }
}
