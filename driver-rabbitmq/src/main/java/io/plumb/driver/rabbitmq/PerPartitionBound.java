package io.plumb.driver.rabbitmq;

import io.plumb.driver.ClientWindow;

/**
 * One setting's bound on each partition's own channel, queue or stream, as the RabbitMQ clients
 * apply their windows: a client's window is that bound times the partitions it uses.
 *
 * @param setting the setting's name as {@code --driver-set} takes it
 * @param value its value on each partition
 * @param unit what it counts when not messages ("chunks"), else null
 * @param holder what each partition has one of, bounded by it ("channel", "queue", "stream")
 */
record PerPartitionBound(String setting, int value, String unit, String holder) {

  /** A bound counted in messages. */
  static PerPartitionBound messages(String setting, int value, String holder) {
    return new PerPartitionBound(setting, value, null, holder);
  }

  /**
   * The window over {@code partitions} partitions, its limit reading "maxUnconfirmed 2000 per
   * partition channel x 4 partitions" followed by {@code more} (what else bounds it, how to change
   * it).
   */
  ClientWindow times(int partitions, String more) {
    long count = (long) value * partitions;
    String limit =
        setting
            + " "
            + value
            + (unit == null ? "" : " " + unit)
            + " per partition "
            + holder
            + " x "
            + ClientWindow.partitions(partitions)
            + more;
    return unit == null ? ClientWindow.messages(count, limit) : ClientWindow.of(count, unit, limit);
  }
}
