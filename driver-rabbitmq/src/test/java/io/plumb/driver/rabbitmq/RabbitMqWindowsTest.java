package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.ClientWindow;
import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.DriverFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The send and receive windows both RabbitMQ drivers report, from the shipped files and from {@code
 * --driver-set} overrides, without a broker (the engine's result carries them too:
 * RabbitMqReplicatedClusterTest).
 */
class RabbitMqWindowsTest {

  private static RabbitMqConfig amqp(String file, Map<String, String> overrides)
      throws IOException, DriverConfigException {
    return DriverFiles.settings(
        Path.of(file),
        overrides,
        f -> RabbitMqConfig.read(RabbitMqConfig.withEnvironment(f, Map.of())));
  }

  private static RabbitMqStreamConfig stream(String file, Map<String, String> overrides)
      throws IOException, DriverConfigException {
    return DriverFiles.settings(
        Path.of(file), overrides, f -> RabbitMqStreamConfig.read(f, Map.of()));
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

  /** What a driver's windows report over some partitions: values, and how each limit begins. */
  private record Reported(
      String send, String sendLimitStart, String receive, String receiveLimitStart) {}

  /**
   * AMQP: the overrides per channel and per queue, on one partition. Streams: messages out, chunks
   * in, each per partition stream.
   */
  static Stream<Arguments> overriddenWindows() throws Exception {
    return Stream.of(
        Arguments.of(
            "AMQP",
            new AmqpWindows(
                amqp(
                    "rabbitmq-classic-mirrored.yaml",
                    Map.of("maxUnconfirmed", "16", "prefetchCount", "256"))),
            1,
            new Reported("16", "maxUnconfirmed 16 ", "256", "prefetchCount 256 ")),
        Arguments.of(
            "streams",
            new StreamWindows(
                stream(
                    "rabbitmq-stream-protocol.yaml",
                    Map.of("maxUnconfirmedMessages", "500", "initialCredits", "3"))),
            3,
            new Reported(
                "1500", "maxUnconfirmedMessages 500 ", "9 chunks", "initialCredits 3 chunks")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("overriddenWindows")
  void overridesChangeTheWindowsReported(
      String driver, PartitionWindows windows, int partitions, Reported expected) {
    Map<String, String> facts = windows.facts(partitions);

    assertEquals(expected.send(), facts.get(BrokerFactNames.SEND_WINDOW));
    String sendLimit = facts.get(BrokerFactNames.SEND_WINDOW_LIMIT);
    assertTrue(sendLimit.startsWith(expected.sendLimitStart()), facts.toString());
    assertEquals(
        expected.sendLimitStart().split(" ")[0],
        ClientWindow.send(facts).orElseThrow().setting(),
        facts.toString());
    assertEquals(expected.receive(), facts.get(BrokerFactNames.RECEIVE_WINDOW));
    assertTrue(
        facts.get(BrokerFactNames.RECEIVE_WINDOW_LIMIT).startsWith(expected.receiveLimitStart()),
        facts.toString());
  }
}
