package io.plumb.driver.rabbitmq;

/**
 * Exchange types the driver can route partitions with. Both route by the exact routing key {@code
 * <partition>}; {@code topic} exists to measure the cost of the topic exchange's pattern matching.
 */
public enum ExchangeType {
  DIRECT,
  TOPIC;

  String brokerName() {
    return name().toLowerCase();
  }
}
