package io.plumb.driver.rabbitmq;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * RabbitMQ 3.x classic mirrored queues, declared the only way the broker offers: a policy whose
 * pattern matches the run's queues, applied before they exist. The broker drops mirroring in 4.0;
 * until then it is what many deployments run, and what comparisons with quorum queues measure.
 *
 * @param mode {@code ha-mode}: a fixed number of copies, or one on every node
 * @param copies {@code ha-params} for {@link HaMode#EXACTLY} (the queue and its mirrors), else null
 * @param syncMode {@code ha-sync-mode}: whether a new mirror copies the queue's backlog at once
 * @param promoteOnShutdown {@code ha-promote-on-shutdown}: may an unsynchronised mirror take over
 *     when the master's node is stopped
 * @param promoteOnFailure {@code ha-promote-on-failure}: the same when the master's node fails
 */
record ClassicMirroring(
    HaMode mode,
    Integer copies,
    HaSyncMode syncMode,
    HaPromotion promoteOnShutdown,
    HaPromotion promoteOnFailure) {

  /** {@code ha-mode}. */
  enum HaMode {
    EXACTLY,
    ALL;

    @Override
    public String toString() {
      return policyValue(this);
    }
  }

  /** {@code ha-sync-mode}. */
  enum HaSyncMode {
    AUTOMATIC,
    MANUAL;

    @Override
    public String toString() {
      return policyValue(this);
    }
  }

  /** {@code ha-promote-on-shutdown} and {@code ha-promote-on-failure}. */
  enum HaPromotion {
    WHEN_SYNCED,
    ALWAYS;

    @Override
    public String toString() {
      return policyValue(this);
    }
  }

  /** The broker's spelling of a constant: {@code WHEN_SYNCED} is {@code when-synced}. */
  private static String policyValue(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The policy's definition, as the management API takes it. */
  Map<String, Object> policyDefinition() {
    Map<String, Object> definition = new LinkedHashMap<>();
    definition.put("ha-mode", mode.toString());
    if (mode == HaMode.EXACTLY) {
      definition.put("ha-params", copies);
    }
    definition.put("ha-sync-mode", syncMode.toString());
    definition.put("ha-promote-on-shutdown", promoteOnShutdown.toString());
    definition.put("ha-promote-on-failure", promoteOnFailure.toString());
    return definition;
  }

  /** Copies each queue gets on a cluster of {@code runningNodes}. */
  int expectedCopies(int runningNodes) {
    return mode == HaMode.ALL ? runningNodes : Math.min(copies, runningNodes);
  }

  /** One line for the result's facts. */
  String describe() {
    StringBuilder text = new StringBuilder("ha-mode ").append(mode);
    if (mode == HaMode.EXACTLY) {
      text.append(' ').append(copies);
    }
    return text.append(", ha-sync-mode ")
        .append(syncMode)
        .append(", ha-promote-on-shutdown ")
        .append(promoteOnShutdown)
        .append(", ha-promote-on-failure ")
        .append(promoteOnFailure)
        .toString();
  }
}
