package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.testkit.Acknowledgements;
import io.plumb.testkit.DriverFileRefusalContract;
import io.plumb.testkit.DriverRoundTrip;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The stream-protocol driver against the local broker. */
class RabbitMqStreamBenchmarkDriverTest implements DriverFileRefusalContract {

  @BeforeAll
  static void brokerRunning() {
    Broker.requireReachable(5552, ManagementApi.PORT);
  }

  @Test
  void deliversEveryMessageOncePerSubscriptionOnDurableStreams() throws Exception {
    try (RabbitMqStreamBenchmarkDriver driver =
        Broker.openStream("rabbitmq-stream-protocol.yaml", Map.of())) {
      DriverRoundTrip.Result r =
          DriverRoundTrip.run(
              driver,
              DriverRoundTrip.Plan.of(2_000, 30)
                  .checking(
                      topic -> {
                        for (int p = 0; p < DriverRoundTrip.PARTITIONS; p++) {
                          String stream = StreamNames.partition(topic, p);
                          JsonNode queue = Broker.queue(stream);
                          assertEquals("stream", queue.path("type").asText(), stream);
                          assertTrue(queue.path("durable").asBoolean(), stream);
                          assertEquals(
                              "10000000000",
                              queue.path("arguments").path("x-max-length-bytes").asText(),
                              stream + " retention");
                        }
                      }));
      r.assertSharedBetweenMembers();
      assertFalse(Broker.queueExists(StreamNames.partition(r.topic(), 0)));
    }
  }

  /**
   * The broker serves each stream connection with one process: readers of every partition sharing
   * one connection fell seconds behind at 10,000 msg/s while the broker had a core to spare.
   */
  @Test
  void eachPartitionReaderHasAConnectionOfItsOwn() throws Exception {
    try (RabbitMqStreamBenchmarkDriver driver =
        Broker.openStream("rabbitmq-stream-protocol.yaml", Map.of())) {
      String topic = DriverRoundTrip.newTopicName(driver.topicNamePrefix() + "-test");
      driver.createTopic(topic, DriverRoundTrip.PARTITIONS).get(30, TimeUnit.SECONDS);
      try (BenchmarkConsumer consumer =
          driver
              .createConsumer(topic, "sub", DriverRoundTrip.discarding())
              .get(30, TimeUnit.SECONDS)) {
        Set<String> connections =
            Broker.awaitStreamConnections(
                "rabbitmq-stream-consumer-", DriverRoundTrip.PARTITIONS, 30);
        assertTrue(connections.size() >= DriverRoundTrip.PARTITIONS, connections.toString());
      }
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * The one fault role it names, the node holding it on the single broker, and any other word
   * refused.
   */
  @Test
  void namesTheLeaderOfPartitionZerosStream() throws Exception {
    try (RabbitMqStreamBenchmarkDriver driver =
        Broker.openStream("rabbitmq-stream-protocol.yaml", Map.of())) {
      assertEquals(
          Map.of("leader", "stream leader", "followers", "nodes but the stream leader"),
          driver.targets());
      String topic = DriverRoundTrip.newTopicName(driver.topicNamePrefix() + "-test");
      driver.createTopic(topic, 1).get(30, TimeUnit.SECONDS);
      assertEquals(Optional.of("127.0.0.1:5552"), driver.locate("leader", topic));
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> driver.locate("primary", topic));
      assertEquals("this driver names no primary", refused.getMessage());
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * A send the stream client refuses on the sending thread (here: it was interrupted while waiting
   * for room among unconfirmed messages) names its key's partition, as a refused confirmation does:
   * the framework opens a partition's unavailability only for failures that name one.
   */
  @Test
  void aSendRefusedOnTheSendingThreadNamesItsKeysPartition() throws Exception {
    int keys = 6;
    try (RabbitMqStreamBenchmarkDriver driver =
        Broker.openStream("rabbitmq-stream-protocol.yaml", Map.of())) {
      String topic = "plumb-refused-" + System.nanoTime();
      driver.createTopic(topic, 3).get(30, TimeUnit.SECONDS);
      try (BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS)) {
        Acknowledgements acknowledged = new Acknowledgements(keys);
        Acknowledgements refused = new Acknowledgements(keys);
        for (int k = 0; k < keys; k++) {
          producer.send("key-" + k, new byte[100], k, acknowledged);
        }
        assertEquals(List.of(), acknowledged.await(Duration.ofSeconds(30)));
        for (int k = 0; k < keys; k++) {
          Thread.currentThread().interrupt();
          try {
            producer.send("key-" + k, new byte[100], k, refused);
          } finally {
            Thread.interrupted();
          }
        }
        assertEquals(keys, refused.await(Duration.ofSeconds(30)).size());
        for (int k = 0; k < keys; k++) {
          assertTrue(acknowledged.partitionOf(k) >= 0, "key-" + k);
          assertEquals(acknowledged.partitionOf(k), refused.partitionOf(k), "key-" + k);
        }
      } finally {
        driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * Closing a producer completes every send it took, as acknowledged or failed: the stream client
   * forgets the confirmation handlers of messages still batching or unconfirmed when it closes, so
   * without the driver those sends would be neither, counted in flight for ever.
   */
  @Test
  void closingAProducerCompletesEverySendItTook() throws Exception {
    int sends = 50;
    try (RabbitMqStreamBenchmarkDriver driver =
        Broker.openStream(
            "rabbitmq-stream-protocol.yaml",
            Map.of("dynamicBatch", "false", "batchPublishingDelayMs", "5000"))) {
      String topic = "plumb-close-" + System.nanoTime();
      driver.createTopic(topic, 1).get(30, TimeUnit.SECONDS);
      try {
        Acknowledgements completions = new Acknowledgements(sends);
        BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);
        for (int i = 0; i < sends; i++) {
          producer.send(null, new byte[100], i, completions);
        }
        producer.close();
        List<String> problems = completions.await(Duration.ofSeconds(10));
        assertTrue(
            problems.stream().noneMatch(p -> p.contains("not completed")), problems.toString());
      } finally {
        driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void hostAndPortOverridable() throws Exception {
    assertEquals(
        "--driver-set port=0: 0; allowed: a positive number",
        refusalOf(Path.of("rabbitmq-stream-protocol.yaml"), Map.of("port", "0")));
    try (RabbitMqStreamBenchmarkDriver driver =
        Broker.openStream(
            "rabbitmq-stream-protocol.yaml", Map.of("host", "localhost", "port", "5552"))) {
      assertEquals("localhost:5552", driver.brokerFacts().get("rabbitmq.stream.endpoint"));
    }
  }

  @Override
  public BenchmarkDriver newDriver() {
    return new RabbitMqStreamBenchmarkDriver();
  }

  /** The AMQP driver's files are the module's; the stream protocol's sit below them. */
  @Override
  public Path refusedFiles() {
    return Path.of(REFUSED_FILES, "stream");
  }
}
