package io.plumb.driver.rabbitmq;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.rabbitmq.ClassicMirroring.HaMode;
import io.plumb.driver.rabbitmq.ClassicMirroring.HaPromotion;
import io.plumb.driver.rabbitmq.ClassicMirroring.HaSyncMode;
import java.util.Optional;

/**
 * Reads a driver file's classic-mirroring fields ({@code haMode}, {@code haSyncMode}, {@code
 * haPromoteOnShutdown}, {@code haPromoteOnFailure}, spelled as the policy keys are) and refuses the
 * combinations the broker would ignore or reject, each with one line naming the field.
 */
final class MirroringSettings {
  static final String MODE_FIELD = "haMode";
  private static final String SYNC_FIELD = "haSyncMode";
  private static final String SHUTDOWN_FIELD = "haPromoteOnShutdown";
  private static final String FAILURE_FIELD = "haPromoteOnFailure";

  private MirroringSettings() {}

  /**
   * The mirroring the file asks for, or null without {@code haMode}. The other fields default to
   * the broker's own defaults (manual synchronisation, promotion when synchronised on shutdown,
   * always on failure); {@code ha-params} is the file's {@code replicas}, as already read.
   */
  static ClassicMirroring read(DriverSettings s, Integer replicas) throws DriverConfigException {
    Optional<HaMode> mode = s.enumValue(MODE_FIELD, HaMode.class);
    Optional<HaSyncMode> sync = s.enumValue(SYNC_FIELD, HaSyncMode.class);
    Optional<HaPromotion> onShutdown = s.enumValue(SHUTDOWN_FIELD, HaPromotion.class);
    Optional<HaPromotion> onFailure = s.enumValue(FAILURE_FIELD, HaPromotion.class);
    if (mode.isEmpty()) {
      for (String field : new String[] {SYNC_FIELD, SHUTDOWN_FIELD, FAILURE_FIELD}) {
        if (s.has(field)) {
          throw s.error(field, "applies to mirrored classic queues only; set haMode too");
        }
      }
      return null;
    }
    return new ClassicMirroring(
        mode.get(),
        replicas,
        sync.orElse(HaSyncMode.MANUAL),
        onShutdown.orElse(HaPromotion.WHEN_SYNCED),
        onFailure.orElse(HaPromotion.ALWAYS));
  }

  /** Refuses copies or mirroring the queue type cannot have, and a mode without its copies. */
  static void check(DriverSettings s, QueueType type, Integer replicas, ClassicMirroring mirroring)
      throws DriverConfigException {
    if (mirroring != null && type != QueueType.CLASSIC) {
      throw s.error(
          MODE_FIELD,
          "mirrors classic queues only, and queueType is "
              + type
              + " (quorum queues and streams replicate themselves: set replicas)");
    }
    if (mirroring == null && replicas != null && type.replicasArgument() == null) {
      throw s.error(
          ClusterView.REPLICAS_FIELD,
          "a classic queue has one copy, on one node; allowed with queueType QUORUM or STREAM,"
              + " or with haMode: exactly (classic mirrored queues)");
    }
    if (mirroring != null && mirroring.mode() == HaMode.EXACTLY && replicas == null) {
      throw s.error(
          ClusterView.REPLICAS_FIELD,
          "is missing; haMode exactly needs the number of copies (ha-params), e.g. replicas: 3");
    }
    if (mirroring != null && mirroring.mode() == HaMode.ALL && replicas != null) {
      throw s.error(
          ClusterView.REPLICAS_FIELD,
          "is not allowed with haMode all (a copy on every node); use haMode exactly to set it");
    }
  }
}
