package io.plumb.loopback;

import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;

/**
 * The loopback driver's YAML.
 *
 * @param stallAfterMessages after this many messages (counted over all producers) one send blocks;
 *     0 never stalls
 * @param stallMillis how long that send blocks
 * @param keepMessages every topic keeps each message it acknowledges, so a final read can read it
 *     back; off by default, since keeping copies costs the per-message path
 * @param hideAfterMessages after this many messages (counted over all producers), the next {@code
 *     hiddenMessages} are acknowledged and kept but never handed to consumers, like a consumer that
 *     was slow to come back; 0 hides none
 * @param hiddenMessages how many messages are hidden from consumers
 * @param dropAfterMessages after this many messages, the next {@code droppedMessages} are
 *     acknowledged and then neither kept nor delivered, like a broker that lost acknowledged
 *     writes; 0 drops none
 * @param droppedMessages how many messages are dropped
 * @param headerMetadata whether the driver offers to carry Plumb's header beside the body, as a
 *     broker's per-message metadata would (on by default); off, it behaves as a broker without such
 *     metadata, and messages smaller than the header are refused
 * @param holdAfterMessages after this many messages (counted over all producers), every send that
 *     lands on partition {@code heldPartition} is neither kept, delivered nor acknowledged until
 *     its producer closes, which fails it: a client queueing sends for a leader it cannot reach,
 *     for tests of unavailability that lasts to the end of a run; 0 holds none
 * @param heldPartition the partition whose sends are held (of every topic)
 */
record LoopbackConfig(
    long stallAfterMessages,
    long stallMillis,
    boolean keepMessages,
    long hideAfterMessages,
    long hiddenMessages,
    long dropAfterMessages,
    long droppedMessages,
    boolean headerMetadata,
    long holdAfterMessages,
    long heldPartition) {

  static LoopbackConfig read(DriverConfig config) throws DriverConfigException {
    DriverSettings settings = config.settings();
    long after = atLeastZero(settings, "stallAfterMessages");
    long millis = settings.longValue("stallMillis", 0);
    if (millis < 0 || millis > 3_600_000) {
      throw settings.error("stallMillis", "expected 0 to 3600000, got " + millis);
    }
    boolean keep = settings.bool("keepMessages", false);
    long hideAfter = atLeastZero(settings, "hideAfterMessages");
    long hidden = atLeastZero(settings, "hiddenMessages");
    long dropAfter = atLeastZero(settings, "dropAfterMessages");
    long dropped = atLeastZero(settings, "droppedMessages");
    boolean headerMetadata = settings.bool("headerMetadata", true);
    long holdAfter = atLeastZero(settings, "holdAfterMessages");
    long heldPartition = atLeastZero(settings, "heldPartition");
    settings.finish();
    return new LoopbackConfig(
        after,
        millis,
        keep,
        hideAfter,
        hidden,
        dropAfter,
        dropped,
        headerMetadata,
        holdAfter,
        heldPartition);
  }

  /** Whether some messages are hidden from consumers, dropped or held. */
  boolean mishaps() {
    return (hideAfterMessages > 0 && hiddenMessages > 0)
        || (dropAfterMessages > 0 && droppedMessages > 0)
        || holdAfterMessages > 0;
  }

  private static long atLeastZero(DriverSettings settings, String field)
      throws DriverConfigException {
    long value = settings.longValue(field, 0);
    if (value < 0) {
      throw settings.error(field, "expected 0 or more, got " + value);
    }
    return value;
  }
}
