package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.ClientWindow;
import io.plumb.driver.DriverConfigException;
import io.plumb.worker.DriverSettingsReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The send and receive windows both RabbitMQ drivers report, from the shipped files and from {@code
 * --driver-set} overrides, without a broker (the engine's result carries them too:
 * RabbitMqReplicatedClusterTest).
 */
class RabbitMqWindowsTest {

  private static RabbitMqConfig amqp(String file, Map<String, String> overrides)
      throws IOException, DriverConfigException {
    return RabbitMqConfig.read(
        RabbitMqConfig.withEnvironment(
            DriverSettingsReader.config(Path.of(file), overrides).settings(), Map.of()));
  }

  private static RabbitMqStreamConfig stream(String file, Map<String, String> overrides)
      throws IOException, DriverConfigException {
    return RabbitMqStreamConfig.read(
        DriverSettingsReader.config(Path.of(file), overrides).settings(), Map.of());
  }

  @Test
  void aProducersWindowIsMaxUnconfirmedOnEachPartitionsChannel() throws Exception {
    Map<String, String> facts =
        new AmqpWindows(amqp("rabbitmq-quorum-replicated.yaml", Map.of())).facts(4);

    // 2,000 per channel in the file, a channel per partition.
    assertEquals("8000", facts.get(BrokerFactNames.SEND_WINDOW));
    String limit = facts.get(BrokerFactNames.SEND_WINDOW_LIMIT);
    assertTrue(limit.startsWith("maxUnconfirmed 2000 per partition channel x 4 partitions"), limit);
    assertTrue(limit.contains("--driver-set maxUnconfirmed=N"), limit);
    assertEquals("maxUnconfirmed", ClientWindow.send(facts).orElseThrow().setting());
    // prefetchCount 1000 per queue; one consumer may read all four.
    assertEquals("4000", facts.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals("prefetchCount", ClientWindow.receive(facts).orElseThrow().setting());
  }

  @Test
  void overridesChangeTheWindowsReported() throws Exception {
    Map<String, String> facts =
        new AmqpWindows(
                amqp(
                    "rabbitmq-classic-mirrored.yaml",
                    Map.of("maxUnconfirmed", "16", "prefetchCount", "256")))
            .facts(1);

    assertEquals("16", facts.get(BrokerFactNames.SEND_WINDOW));
    assertTrue(
        facts.get(BrokerFactNames.SEND_WINDOW_LIMIT).startsWith("maxUnconfirmed 16 "),
        facts.toString());
    assertEquals("256", facts.get(BrokerFactNames.RECEIVE_WINDOW));
  }

  @Test
  void noBoundIsReportedAsUnboundedWithTheSettingThatLiftedIt() throws Exception {
    // rabbitmq-quorum.yaml waits for confirms and leaves maxUnconfirmed at its default, 0.
    ClientWindow socketOnly = new AmqpWindows(amqp("rabbitmq-quorum.yaml", Map.of())).send(2);
    assertEquals(BrokerFactNames.UNBOUNDED, socketOnly.value());
    assertEquals("maxUnconfirmed", socketOnly.setting());
    assertTrue(socketOnly.limit().contains("--driver-set maxUnconfirmed=N"), socketOnly.limit());

    // rabbitmq.yaml publishes without confirms.
    ClientWindow noConfirms = new AmqpWindows(amqp("rabbitmq.yaml", Map.of())).send(2);
    assertEquals(BrokerFactNames.UNBOUNDED, noConfirms.value());
    assertEquals("publisherConfirms", noConfirms.setting());
  }

  @Test
  void beforeAnyTopicExistsNoWindowIsReported() throws Exception {
    assertEquals(Map.of(), new AmqpWindows(amqp("rabbitmq-quorum.yaml", Map.of())).facts(0));
    assertEquals(
        Map.of(), new StreamWindows(stream("rabbitmq-stream-protocol.yaml", Map.of())).facts(0));
  }

  @Test
  void theStreamProtocolCountsMessagesOutAndChunksIn() throws Exception {
    Map<String, String> facts =
        new StreamWindows(
                stream(
                    "rabbitmq-stream-protocol.yaml",
                    Map.of("maxUnconfirmedMessages", "500", "initialCredits", "3")))
            .facts(3);

    assertEquals("1500", facts.get(BrokerFactNames.SEND_WINDOW));
    assertEquals(
        "maxUnconfirmedMessages", ClientWindow.send(facts).orElseThrow().setting(), facts + "");
    assertEquals("9 chunks", facts.get(BrokerFactNames.RECEIVE_WINDOW));
    assertTrue(
        facts.get(BrokerFactNames.RECEIVE_WINDOW_LIMIT).startsWith("initialCredits 3 chunks"),
        facts.toString());
  }
}
