package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.MessageProperties;
import com.rabbitmq.client.impl.LongStringHelper;
import com.rabbitmq.stream.Codec;
import com.rabbitmq.stream.Message;
import com.rabbitmq.stream.codec.QpidProtonCodec;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.MessageListener;
import io.plumb.result.RunReport;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.MixedHeaderMessages;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.io.DataInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Messages smaller than Plumb's header: the header travels in the message's metadata (an AMQP 0.9.1
 * headers-table entry, or an AMQP 1.0 application property on the stream protocol), the payload is
 * the body alone. The wire bytes each driver reports are checked against what the clients encode;
 * on the local broker (deploy/local/rabbitmq.sh start) every 1-byte message arrives once with its
 * end-to-end latency, and the final reads hand header and body apart.
 */
class RabbitMqMetadataHeaderTest {

  @TempDir Path scratch;

  /** A header as the framework writes it, the same bytes for the same sequence number. */
  private static byte[] header(long sequence) {
    return MixedHeaderMessages.header(sequence);
  }

  @Test
  void amqpHeadersEntryAddsTheReportedBytesAndReadsBackAsTheHeader() throws Exception {
    byte[] header = header(42);
    byte[] body = {7};
    for (AMQP.BasicProperties plain :
        List.of(MessageProperties.MINIMAL_BASIC, MessageProperties.MINIMAL_PERSISTENT_BASIC)) {
      AMQP.BasicProperties with = AmqpHeader.properties(plain, header);
      // The content header frame the client writes for each (the body frame is the same).
      int added = with.toFrame(1, body.length).size() - plain.toFrame(1, body.length).size();
      assertEquals(41, AmqpHeader.WIRE_BYTES);
      assertEquals(AmqpHeader.WIRE_BYTES, added, "bytes the entry adds beside " + plain);
      assertEquals(plain.getDeliveryMode(), with.getDeliveryMode(), "persistence kept");

      // Read back as a consumer's client parses it: the class id, then weight, body size and
      // properties, which the constructor reads.
      DataInputStream in = with.toFrame(1, body.length).getInputStream();
      in.readShort();
      AMQP.BasicProperties parsed = new AMQP.BasicProperties(in);
      Recorder recorder = new Recorder();
      AmqpHeader.deliver(parsed.getHeaders(), body, 2, recorder);
      assertEquals(1, recorder.withHeader.size(), "a byte array ('x') comes back as one");
      assertArrayEquals(header, recorder.withHeader.get(0)[0]);
      assertArrayEquals(body, recorder.withHeader.get(0)[1]);
    }

    // A broker that converted the message may hand the value back as a long string.
    Recorder converted = new Recorder();
    AmqpHeader.deliver(
        Map.of(AmqpHeader.NAME, LongStringHelper.asLongString(header)), body, 0, converted);
    assertArrayEquals(header, converted.withHeader.get(0)[0]);

    // No headers, or none of Plumb's: the plain payload.
    Recorder plain = new Recorder();
    AmqpHeader.deliver(null, header, 0, plain);
    AmqpHeader.deliver(Map.of("x-stream-offset", 5L), header, 0, plain);
    AmqpHeader.deliver(Map.of(AmqpHeader.NAME, 12), header, 0, plain);
    assertEquals(3, plain.plain.size());
    assertEquals(0, plain.withHeader.size());
  }

  @Test
  void streamApplicationPropertyAddsTheReportedBytesAndReadsBackAsTheHeader() {
    // The client's default codec: what producers encode and readers decode.
    Codec codec = new QpidProtonCodec();
    byte[] header = header(42);
    byte[] body = {7};
    Message plain = codec.messageBuilder().addData(body).build();
    Message with = StreamHeader.message(codec.messageBuilder(), header, body);
    // The framework reuses its arrays once send() returns: the message must not see that.
    Arrays.fill(header, (byte) 0);
    body[0] = 0;

    Codec.EncodedMessage encoded = codec.encode(with);
    int added = encoded.getSize() - codec.encode(plain).getSize();
    assertEquals(41, StreamHeader.WIRE_BYTES);
    assertEquals(StreamHeader.WIRE_BYTES, added, "bytes the application property adds");

    Recorder recorder = new Recorder();
    StreamHeader.deliver(
        codec.decode(Arrays.copyOf(encoded.getData(), encoded.getSize())), 1, recorder);
    assertEquals(1, recorder.withHeader.size());
    assertArrayEquals(header(42), recorder.withHeader.get(0)[0], "the header as it was sent");
    assertArrayEquals(new byte[] {7}, recorder.withHeader.get(0)[1], "the body as it was sent");

    Recorder plainRecorder = new Recorder();
    Codec.EncodedMessage plainEncoded = codec.encode(plain);
    StreamHeader.deliver(
        codec.decode(Arrays.copyOf(plainEncoded.getData(), plainEncoded.getSize())),
        1,
        plainRecorder);
    assertEquals(1, plainRecorder.plain.size());
    assertEquals(0, plainRecorder.withHeader.size());
  }

  /**
   * One-byte messages through the whole engine: nothing lost or duplicated, the result says where
   * the header travelled, and latencies are timed from the header's send time. Classic and quorum
   * queues, a stream queue over AMQP (the broker stores the headers table with the message) and the
   * stream protocol.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "rabbitmq-durable.yaml",
        "rabbitmq-quorum.yaml",
        "rabbitmq-stream.yaml",
        "rabbitmq-stream-protocol.yaml"
      })
  void oneByteMessagesCarryTheHeaderInMetadata(String file) {
    Broker.requireReachable(file.contains("stream-protocol") ? 5552 : 5672);
    String where = file.contains("stream-protocol") ? StreamHeader.WHERE : AmqpHeader.WHERE;
    SmokeRun run = SmokeRun.oneByte();
    RunReport report = run.run(Path.of(file), Map.of(), scratch);
    assertEquals(
        List.of(),
        run.metadataHeaderProblems(
            report, where + ", +41 bytes per message on the wire beside each 1-byte payload"));
    Map<String, String> facts = report.brokerFacts();
    assertEquals(where, facts.get(BrokerFactNames.HEADER_METADATA), facts.toString());
    assertEquals("41", facts.get(BrokerFactNames.HEADER_METADATA_BYTES), facts.toString());
  }

  /** The final read hands messages with the header apart, and plain ones whole, each once. */
  @Test
  void queueFinalReadHandsTheHeaderApart() throws Exception {
    Broker.requireReachable(5672);
    try (RabbitMqBenchmarkDriver driver = new RabbitMqBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(Path.of("rabbitmq-quorum.yaml"), Map.of()));
      String topic = DriverRoundTrip.newTopicName("plumb-header-final");
      driver.createTopic(topic, 2).get(30, TimeUnit.SECONDS);
      // The subscription's queues outlive the consumer that declared them.
      driver.createConsumer(topic, "sub", new Recorder()).get(30, TimeUnit.SECONDS).close();
      assertEquals(
          List.of(),
          new MixedHeaderMessages(400)
              .sendThenReadToEnd(driver, topic, "sub", Duration.ofSeconds(120)));
    }
  }

  @Test
  void streamFinalReadHandsTheHeaderApart() throws Exception {
    Broker.requireReachable(5552);
    try (RabbitMqStreamBenchmarkDriver driver = new RabbitMqStreamBenchmarkDriver()) {
      driver.initialize(
          DriverSettingsReader.config(Path.of("rabbitmq-stream-protocol.yaml"), Map.of()));
      String topic = DriverRoundTrip.newTopicName("plumb-header-final-stream");
      driver.createTopic(topic, 2).get(30, TimeUnit.SECONDS);
      assertEquals(
          List.of(),
          new MixedHeaderMessages(400)
              .sendThenReadToEnd(driver, topic, "sub", Duration.ofSeconds(120)));
    }
  }

  /** What a listener was handed, copied: with the header apart, or plain. */
  private static final class Recorder implements MessageListener {
    final List<byte[][]> withHeader = new CopyOnWriteArrayList<>();
    final List<byte[]> plain = new CopyOnWriteArrayList<>();
    final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Override
    public void received(byte[] payload, int partition) {
      plain.add(payload.clone());
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      withHeader.add(new byte[][] {header.clone(), payload.clone()});
    }

    @Override
    public void failed(Throwable error) {
      errors.add(error);
    }
  }
}
