package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.DriverConfigException;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The stream-protocol driver against the local broker. */
class RabbitMqStreamBenchmarkDriverTest {

  @BeforeAll
  static void brokerRunning() {
    Broker.requireReachable(5552);
    Broker.requireReachable(ManagementApi.PORT);
  }

  private static RabbitMqStreamBenchmarkDriver driver(String file, Map<String, String> overrides)
      throws Exception {
    RabbitMqStreamBenchmarkDriver driver = new RabbitMqStreamBenchmarkDriver();
    driver.initialize(DriverSettingsReader.config(Path.of(file), overrides));
    return driver;
  }

  @Test
  void deliversEveryMessageOncePerSubscriptionOnDurableStreams() throws Exception {
    try (RabbitMqStreamBenchmarkDriver driver = driver("rabbitmq-stream-protocol.yaml", Map.of())) {
      String topic = RoundTrip.topicName("plumb-test-stream");
      driver.createTopic(topic, RoundTrip.PARTITIONS).get(30, TimeUnit.SECONDS);
      RoundTrip.run(driver, topic);
      for (int p = 0; p < RoundTrip.PARTITIONS; p++) {
        String stream = StreamNames.partition(topic, p);
        assertEquals("stream", Broker.queue(stream).path("type").asText(), stream);
        assertTrue(Broker.queue(stream).path("durable").asBoolean(), stream);
        assertEquals(
            "10000000000",
            Broker.queue(stream).path("arguments").path("x-max-length-bytes").asText(),
            stream + " retention");
      }
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
      assertFalse(Broker.queueExists(StreamNames.partition(topic, 0)));
    }
  }

  /**
   * The broker serves each stream connection with one process: readers of every partition sharing
   * one connection fell seconds behind at 10,000 msg/s while the broker had a core to spare.
   */
  @Test
  void eachPartitionReaderHasAConnectionOfItsOwn() throws Exception {
    try (RabbitMqStreamBenchmarkDriver driver = driver("rabbitmq-stream-protocol.yaml", Map.of())) {
      String topic = RoundTrip.topicName("plumb-test-stream-connections");
      driver.createTopic(topic, RoundTrip.PARTITIONS).get(30, TimeUnit.SECONDS);
      try (BenchmarkConsumer consumer =
          driver
              .createConsumer(
                  topic, "sub", new RoundTrip.Subscription("sub").member(new AtomicInteger()))
              .get(30, TimeUnit.SECONDS)) {
        Set<String> connections =
            Broker.awaitStreamConnections("rabbitmq-stream-consumer-", RoundTrip.PARTITIONS, 30);
        assertTrue(connections.size() >= RoundTrip.PARTITIONS, connections.toString());
      }
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void hostAndPortOverridable() throws Exception {
    DriverConfigException e =
        assertThrows(
            DriverConfigException.class,
            () -> driver("rabbitmq-stream-protocol.yaml", Map.of("port", "0")));
    assertEquals("--driver-set port=0: 0; allowed: a positive number", e.getMessage());
    try (RabbitMqStreamBenchmarkDriver driver =
        driver("rabbitmq-stream-protocol.yaml", Map.of("host", "localhost", "port", "5552"))) {
      assertEquals("localhost:5552", driver.brokerFacts().get("rabbitmq.stream.endpoint"));
    }
  }

  @Test
  void rejectsMisspelledField() {
    String file = "src/test/resources/misspelled-stream.yaml";
    DriverConfigException e =
        assertThrows(DriverConfigException.class, () -> driver(file, Map.of()));
    assertTrue(
        e.getMessage()
            .startsWith(
                file + ":4: unknown field 'batchsize' (did you mean 'batchSize'?); allowed: "),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }
}
