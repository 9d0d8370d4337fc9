package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.OmbDriverFieldsContract;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * OpenMessaging Benchmark's RabbitMQ driver file, field by field: each lands where OMB's {@code
 * RabbitMqBenchmarkDriver} puts it, checked up to the driver's settings and queue arguments
 * (connections, publishing and queues need a broker: RabbitMqBenchmarkDriverTest). The file mirrors
 * OMB's {@code driver-rabbitmq/rabbitmq.yaml}.
 */
class OmbRabbitMqDriverFieldsTest extends OmbDriverFieldsContract<RabbitMqConfig> {
  private static final String OMB_FILE =
      """
      name: RabbitMQ
      driverClass: io.openmessaging.benchmark.driver.rabbitmq.RabbitMqBenchmarkDriver

      # RabbitMq client specific configurations

      producerCreationDelay: 100
      producerCreationBatchSize: 5
      consumerCreationDelay: 100
      consumerCreationBatchSize: 5

      amqpUris:
        - amqp://localhost
      messagePersistence: false
      queueType: QUORUM
      """;

  OmbRabbitMqDriverFieldsTest() {
    super(
        "rabbitmq.yaml",
        OMB_FILE,
        fields -> RabbitMqConfig.read(RabbitMqConfig.withEnvironment(fields, Map.of())),
        "RabbitMQ",
        RabbitMqBenchmarkDriver.class);
  }

  /** OMB: broker URIs; producers and consumers connect to them in turn. */
  @Test
  void amqpUris() throws IOException, DriverConfigException {
    assertEquals(List.of("amqp://localhost"), settings().amqpUris());
    RabbitMqConfig two =
        variant(OMB_FILE.replace("  - amqp://localhost\n", "  - amqp://h1\n  - amqp://h2\n"));
    assertEquals(List.of("amqp://h1", "amqp://h2"), two.amqpUris());
  }

  /** OMB: publish persistent messages (delivery mode 2) or not; false when absent. */
  @Test
  void messagePersistence() throws IOException, DriverConfigException {
    assertFalse(settings().messagePersistence());
    assertTrue(
        variant(OMB_FILE.replace("messagePersistence: false", "messagePersistence: true"))
            .messagePersistence());
    assertFalse(variant(OMB_FILE.replace("messagePersistence: false\n", "")).messagePersistence());
  }

  /**
   * OMB: the queue type, declared with {@code x-queue-type} (CLASSIC when absent); OMB declares
   * every queue durable and publishes with confirms, as Plumb does unless told otherwise.
   */
  @Test
  void queueType() throws IOException, DriverConfigException {
    assertEquals(QueueType.QUORUM, settings().queueType());
    assertEquals(Map.of("x-queue-type", "quorum"), settings().queueType().declareArguments(null));
    assertEquals(
        Map.of("x-queue-type", "stream"),
        variant(OMB_FILE.replace("queueType: QUORUM", "queueType: STREAM"))
            .queueType()
            .declareArguments(null));
    RabbitMqConfig absent = variant(OMB_FILE.replace("queueType: QUORUM\n", ""));
    assertEquals(QueueType.CLASSIC, absent.queueType());
    assertTrue(absent.durable());
    assertTrue(absent.publisherConfirms());
  }

  /**
   * OMB: create producers and consumers in batches of this size, this many milliseconds apart.
   * Plumb accepts the fields and creates them without pauses.
   */
  @Test
  void creationDelaysAndBatchSizes() {
    assertEquals(100L, settings().producerCreationDelay());
    assertEquals(5, settings().producerCreationBatchSize());
    assertEquals(100L, settings().consumerCreationDelay());
    assertEquals(5, settings().consumerCreationBatchSize());
  }
}
