package io.plumb.driver.pulsar;

/**
 * The Pulsar driver's YAML, in OMB's Pulsar format: {@code client}, {@code producer} and {@code
 * consumer} sections with OMB's field names, plus a few of Plumb's own.
 *
 * @param name display name
 * @param driverClass which driver reads this file
 * @param client connection, namespace and persistence settings
 * @param producer batching and queueing of producers
 * @param consumer subscription settings
 */
public record PulsarConfig(
    String name,
    String driverClass,
    PulsarClientSettings client,
    PulsarProducerSettings producer,
    PulsarConsumerSettings consumer) {

  public PulsarConfig {
    client = client == null ? PulsarClientSettings.defaults() : client;
    producer = producer == null ? PulsarProducerSettings.defaults() : producer;
    consumer = consumer == null ? PulsarConsumerSettings.defaults() : consumer;
  }
}
