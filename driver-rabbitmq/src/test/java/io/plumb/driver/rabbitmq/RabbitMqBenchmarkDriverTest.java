package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.DriverFileRefusalContract;
import io.plumb.testkit.DriverFiles;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.OmbDriverClass;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The AMQP driver against the local broker, once per shipped YAML. */
class RabbitMqBenchmarkDriverTest implements DriverFileRefusalContract {

  @BeforeAll
  static void brokerRunning() {
    Broker.requireReachable(5672, ManagementApi.PORT);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // file, queue type the broker must report, durable
    "rabbitmq.yaml, classic, false",
    "rabbitmq-durable.yaml, classic, true",
    "rabbitmq-quorum.yaml, quorum, true",
    "rabbitmq-stream.yaml, stream, true",
  })
  void deliversEveryMessageOncePerSubscriptionWithTheSettingsTheYamlPromises(
      String file, String queueType, boolean durable) throws Exception {
    try (RabbitMqBenchmarkDriver driver = Broker.open(file, Map.of())) {
      DriverRoundTrip.Result r =
          DriverRoundTrip.run(
              driver,
              DriverRoundTrip.Plan.of(2_000, 30)
                  .checking(
                      topic -> {
                        // Read back from the broker what the YAML promises.
                        for (String subscription : List.of("shared", "single")) {
                          for (int p = 0; p < DriverRoundTrip.PARTITIONS; p++) {
                            String queue = RoutingKeys.queueName(topic, subscription, p);
                            JsonNode q = Broker.queue(queue);
                            assertEquals(queueType, q.path("type").asText(), queue + " type");
                            assertEquals(
                                durable, q.path("durable").asBoolean(), queue + " durable");
                          }
                        }
                        JsonNode exchange = Broker.exchange(topic);
                        assertEquals("direct", exchange.path("type").asText());
                        assertEquals(
                            DriverRoundTrip.PARTITIONS,
                            exchange.path("arguments").path("x-plumb-partitions").asInt());
                      }));
      r.assertSharedBetweenMembers();
      assertTrue(driver.brokerFacts().get("rabbitmq.queueType").startsWith(queueType));
      assertEquals(
          String.valueOf(driver.config().messagePersistence()),
          driver.brokerFacts().get("rabbitmq.messagePersistence"));
      assertFalse(Broker.queueExists(RoutingKeys.queueName(r.topic(), "shared", 0)));
    }
  }

  @Test
  void durableYamlsAskForPersistenceAndConfirms() throws Exception {
    for (String file :
        List.of("rabbitmq-durable.yaml", "rabbitmq-quorum.yaml", "rabbitmq-stream.yaml")) {
      RabbitMqConfig c = readConfig(file);
      assertTrue(c.messagePersistence() && c.publisherConfirms() && c.durable(), file);
    }
    RabbitMqConfig transientConfig = readConfig("rabbitmq.yaml");
    assertFalse(transientConfig.messagePersistence() || transientConfig.durable());
  }

  private static RabbitMqConfig readConfig(String file) throws DriverConfigException {
    return DriverFiles.settings(Path.of(file), Map.of(), RabbitMqConfig::read);
  }

  @Test
  void consumerReadsEachPartitionQueueOnItsOwnChannelWithTheConfiguredPrefetch() throws Exception {
    try (RabbitMqBenchmarkDriver driver =
        Broker.open("rabbitmq.yaml", Map.of("prefetchCount", "321"))) {
      String topic = DriverRoundTrip.newTopicName(driver.topicNamePrefix() + "-test");
      driver.createTopic(topic, DriverRoundTrip.PARTITIONS).get(30, TimeUnit.SECONDS);
      try (BenchmarkConsumer consumer =
          driver
              .createConsumer(topic, "sub", DriverRoundTrip.discarding())
              .get(30, TimeUnit.SECONDS)) {
        // The broker's view: one consumer per partition queue, each on a channel of its own
        // (not one channel the broker would push the whole consumer's traffic through), each
        // with the prefetch the file asked for.
        Map<String, JsonNode> byQueue =
            Broker.awaitConsumers(topic + ".sub.", DriverRoundTrip.PARTITIONS, 30);
        Set<String> channels = new HashSet<>();
        for (JsonNode c : byQueue.values()) {
          assertEquals(321, c.path("prefetch_count").asInt(), c.toString());
          channels.add(c.path("channel_details").path("name").asText());
        }
        assertEquals(DriverRoundTrip.PARTITIONS, channels.size(), "channels: " + channels);
      }
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void producerPublishesEachPartitionOnItsOwnConfirmingChannel() throws Exception {
    try (RabbitMqBenchmarkDriver driver = Broker.open("rabbitmq-durable.yaml", Map.of())) {
      String topic = DriverRoundTrip.newTopicName("plumb-test-producer-channels");
      driver.createTopic(topic, DriverRoundTrip.PARTITIONS).get(30, TimeUnit.SECONDS);
      try (BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS)) {
        // The broker's view of the producer's connection: a channel per partition, each in
        // confirm mode as the durable file promises. A channel's first statistics may predate
        // its confirm.select, hence the wait for channels that report confirm mode.
        List<JsonNode> channels =
            Broker.awaitChannels(
                "plumb-producer-" + topic,
                DriverRoundTrip.PARTITIONS,
                30,
                channel -> channel.path("confirm").asBoolean());
        assertEquals(DriverRoundTrip.PARTITIONS, channels.size());
        for (JsonNode channel : channels) {
          assertTrue(channel.path("confirm").asBoolean(), channel.toString());
        }
      }
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void topicExchangeRoutesPartitionsToo() throws Exception {
    try (RabbitMqBenchmarkDriver driver =
        Broker.open("rabbitmq.yaml", Map.of("exchangeType", "topic"))) {
      DriverRoundTrip.run(
              driver,
              DriverRoundTrip.Plan.of(2_000, 30)
                  .checking(
                      topic -> assertEquals("topic", Broker.exchange(topic).path("type").asText())))
          .assertSharedBetweenMembers();
    }
  }

  @Test
  void acceptsOmbDriverFile() throws Exception {
    try (RabbitMqBenchmarkDriver driver =
        Broker.open("src/test/resources/omb-rabbitmq.yaml", Map.of())) {
      assertEquals(QueueType.QUORUM, driver.config().queueType());
      assertEquals(List.of("amqp://localhost"), driver.config().amqpUris());
      assertTrue(driver.brokerFacts().get("rabbitmq.queueType").startsWith("quorum"));
    }
    OmbDriverClass.assertAliasedAndListed(
        RabbitMqBenchmarkDriver.class,
        "io.openmessaging.benchmark.driver.rabbitmq.RabbitMqBenchmarkDriver");
  }

  @Test
  void driverSetOverridesTheFile() throws Exception {
    try (RabbitMqBenchmarkDriver driver =
        Broker.open(
            "rabbitmq.yaml",
            Map.of("amqpUris", "amqp://guest:guest@127.0.0.1:5672/%2F", "prefetchCount", "100"))) {
      assertEquals(List.of("amqp://guest:guest@127.0.0.1:5672/%2F"), driver.config().amqpUris());
      assertEquals(100, driver.config().prefetchCount());
    }
  }

  @Override
  public BenchmarkDriver newDriver() {
    return new RabbitMqBenchmarkDriver();
  }

  @Test
  void rejectsUnknownAndImpossibleOverrides() throws Exception {
    String unknownKey = Broker.refusal("rabbitmq.yaml", Map.of("amqpUri", "amqp://127.0.0.1"));
    assertTrue(
        unknownKey.startsWith(
            "--driver-set amqpUri=amqp://127.0.0.1: unknown field 'amqpUri'"
                + " (did you mean 'amqpUris'?)"),
        unknownKey);
    assertEquals(
        "--driver-set durable=false: quorum queues are always durable; allowed: true",
        Broker.refusal("rabbitmq-quorum.yaml", Map.of("durable", "false")));
  }
}
