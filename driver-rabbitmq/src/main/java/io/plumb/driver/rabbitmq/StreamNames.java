package io.plumb.driver.rabbitmq;

/** A topic of the stream driver is one stream per partition, named {@code <topic>-<p>}. */
final class StreamNames {
  private StreamNames() {}

  static String partition(String topic, int partition) {
    return topic + "-" + partition;
  }
}
