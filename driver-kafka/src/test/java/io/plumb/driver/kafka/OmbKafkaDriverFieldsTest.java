package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.plumb.testkit.OmbDriverFieldsContract;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * OpenMessaging Benchmark's Kafka driver file, field by field: each lands where OMB's {@code
 * KafkaBenchmarkDriver} puts it (checked up to the client settings; no broker needed). The file
 * mirrors OMB's {@code driver-kafka/kafka-sync.yaml} and {@code kafka-throughput.yaml}.
 */
class OmbKafkaDriverFieldsTest extends OmbDriverFieldsContract<KafkaSettings> {
  private static final String OMB_FILE =
      """
      name: Kafka
      driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver

      # Kafka client-specific configuration
      replicationFactor: 3

      topicConfig: |
        min.insync.replicas=2
        flush.messages=1
        flush.ms=0

      commonConfig: |
        bootstrap.servers=localhost:9092
        default.api.timeout.ms=1200000
        request.timeout.ms=1200000

      producerConfig: |
        acks=all
        linger.ms=1
        batch.size=1048576

      consumerConfig: |
        auto.offset.reset=earliest
        enable.auto.commit=false
        max.partition.fetch.bytes=10485760
      """;

  OmbKafkaDriverFieldsTest() {
    super(
        "kafka-sync.yaml",
        OMB_FILE,
        fields -> KafkaSettings.resolve(fields, Map.of()),
        "Kafka",
        KafkaBenchmarkDriver.class);
  }

  /** OMB: the replication factor of every topic the run creates. */
  @Test
  void replicationFactor() {
    assertEquals(Optional.of((short) 3), settings().replicationFactor());
  }

  /** OMB: topic-level settings, given to every topic at creation. */
  @Test
  void topicConfig() {
    assertEquals(
        Map.of("min.insync.replicas", "2", "flush.messages", "1", "flush.ms", "0"),
        settings().topicConfig());
  }

  /** OMB: client settings for every client: producers, consumers and the admin client. */
  @Test
  void commonConfig() {
    for (Map<String, Object> client :
        List.of(settings().producer(), settings().consumer(), settings().admin())) {
      assertEquals("localhost:9092", client.get("bootstrap.servers"));
      assertEquals("1200000", client.get("request.timeout.ms"));
    }
    // OMB passes every common property to every client; Kafka ignores (with a warning) those a
    // client does not know, so Plumb passes each client only its own.
    assertEquals("1200000", settings().consumer().get("default.api.timeout.ms"));
    assertEquals("1200000", settings().admin().get("default.api.timeout.ms"));
    assertFalse(settings().producer().containsKey("default.api.timeout.ms"));
  }

  /** OMB: producer settings, on top of commonConfig; OMB's String keys and byte[] values. */
  @Test
  void producerConfig() {
    assertEquals("all", settings().producer().get("acks"));
    assertEquals("1", settings().producer().get("linger.ms"));
    assertEquals("1048576", settings().producer().get("batch.size"));
    assertFalse(settings().consumer().containsKey("acks"));
    assertEquals(StringSerializer.class.getName(), settings().producer().get("key.serializer"));
    assertEquals(
        ByteArraySerializer.class.getName(), settings().producer().get("value.serializer"));
  }

  /**
   * OMB: consumer settings, on top of commonConfig (OMB adds {@code group.id}, the subscription's
   * name, per consumer, as Plumb's createConsumer does: that needs a broker).
   */
  @Test
  void consumerConfig() {
    assertEquals("earliest", settings().consumer().get("auto.offset.reset"));
    assertEquals("false", settings().consumer().get("enable.auto.commit"));
    assertFalse(settings().autoCommit());
    assertEquals("10485760", settings().consumer().get("max.partition.fetch.bytes"));
    assertFalse(settings().producer().containsKey("max.partition.fetch.bytes"));
    assertEquals(StringDeserializer.class.getName(), settings().consumer().get("key.deserializer"));
    assertEquals(
        ByteArrayDeserializer.class.getName(), settings().consumer().get("value.deserializer"));
  }
}
