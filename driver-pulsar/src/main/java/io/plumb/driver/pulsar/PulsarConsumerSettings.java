package io.plumb.driver.pulsar;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import org.apache.pulsar.client.api.SubscriptionMode;
import org.apache.pulsar.client.api.SubscriptionType;

/**
 * OMB's {@code consumer} section, plus acknowledgement grouping and the cross-partition receiver
 * queue limit (the client's default of 50,000 would otherwise cap prefetch silently).
 *
 * @param subscriptionType Exclusive, Failover, Shared or Key_Shared
 * @param subscriptionMode Durable or NonDurable
 * @param receiverQueueSize messages prefetched per partition consumer
 * @param maxTotalReceiverQueueSizeAcrossPartitions messages prefetched across a partitioned topic's
 *     partitions
 * @param acknowledgmentsGroupTimeMicros how long acknowledgements are grouped before being sent
 */
public record PulsarConsumerSettings(
    SubscriptionType subscriptionType,
    SubscriptionMode subscriptionMode,
    Integer receiverQueueSize,
    Integer maxTotalReceiverQueueSizeAcrossPartitions,
    Long acknowledgmentsGroupTimeMicros) {

  public PulsarConsumerSettings {
    subscriptionType = subscriptionType == null ? SubscriptionType.Failover : subscriptionType;
    subscriptionMode = subscriptionMode == null ? SubscriptionMode.Durable : subscriptionMode;
    receiverQueueSize = receiverQueueSize == null ? 10_000 : receiverQueueSize;
    maxTotalReceiverQueueSizeAcrossPartitions =
        maxTotalReceiverQueueSizeAcrossPartitions == null
            ? 50_000
            : maxTotalReceiverQueueSizeAcrossPartitions;
    acknowledgmentsGroupTimeMicros =
        acknowledgmentsGroupTimeMicros == null ? 100_000L : acknowledgmentsGroupTimeMicros;
  }

  /** OMB's {@code consumer} section. */
  static PulsarConsumerSettings read(DriverSettings s) throws DriverConfigException {
    return new PulsarConsumerSettings(
        s.enumValue("subscriptionType", SubscriptionType.class).orElse(null),
        s.enumValue("subscriptionMode", SubscriptionMode.class).orElse(null),
        s.integer("receiverQueueSize").orElse(null),
        s.integer("maxTotalReceiverQueueSizeAcrossPartitions").orElse(null),
        s.longValue("acknowledgmentsGroupTimeMicros").orElse(null));
  }
}
