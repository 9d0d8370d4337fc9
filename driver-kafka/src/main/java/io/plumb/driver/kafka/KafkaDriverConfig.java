package io.plumb.driver.kafka;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The Kafka driver file exactly as OpenMessaging Benchmark writes it, so OMB's Kafka files run
 * unchanged. The four {@code *Config} fields are Java-properties text blocks.
 *
 * @param name label shown in results
 * @param driverClass the driver to load (ours or OMB's class name)
 * @param replicationFactor replicas per partition; {@code null} uses the broker's default
 * @param reset delete leftover topics with the run's name prefix before starting (as in OMB)
 * @param topicConfig topic-level settings applied when the topic is created
 * @param commonConfig client settings for producers, consumers and the admin client
 * @param producerConfig producer settings on top of {@code commonConfig}
 * @param consumerConfig consumer settings on top of {@code commonConfig}
 */
public record KafkaDriverConfig(
    @JsonProperty("name") String name,
    @JsonProperty("driverClass") String driverClass,
    @JsonProperty("replicationFactor") Short replicationFactor,
    @JsonProperty("reset") Boolean reset,
    @JsonProperty("topicConfig") String topicConfig,
    @JsonProperty("commonConfig") String commonConfig,
    @JsonProperty("producerConfig") String producerConfig,
    @JsonProperty("consumerConfig") String consumerConfig) {

  /** Every field a Kafka driver file may have, in the order OMB documents them. */
  public static final List<String> FIELDS =
      List.of(
          "name",
          "driverClass",
          "replicationFactor",
          "reset",
          "topicConfig",
          "commonConfig",
          "producerConfig",
          "consumerConfig");

  public KafkaDriverConfig {
    // An empty block (`topicConfig: |` with nothing under it) parses as null: same as absent.
    topicConfig = topicConfig == null ? "" : topicConfig;
    commonConfig = commonConfig == null ? "" : commonConfig;
    producerConfig = producerConfig == null ? "" : producerConfig;
    consumerConfig = consumerConfig == null ? "" : consumerConfig;
    reset = reset != null && reset;
  }
}
