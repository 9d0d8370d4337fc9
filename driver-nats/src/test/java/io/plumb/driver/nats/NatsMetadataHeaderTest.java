package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import io.plumb.message.HeaderPlacement;
import io.plumb.message.MessageHeader;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Messages smaller than Plumb's header on the local server (deploy/local/nats.sh start): the header
 * travels as the NATS message header 'Plumb', the payload is the body alone, and every message
 * arrives once with its end-to-end latency, on core NATS and JetStream; JetStream's final read
 * hands the header apart too, message by message.
 */
class NatsMetadataHeaderTest {
  private static final String PORT = System.getenv().getOrDefault("PLUMB_NATS_PORT", "4222");
  private static final String URL = "nats://127.0.0.1:" + PORT;
  private static final Map<String, String> OVERRIDES =
      PORT.equals("4222") ? Map.of() : Map.of("natsHostUrl", URL);

  @TempDir Path scratch;

  @ParameterizedTest
  @ValueSource(strings = {"nats.yaml", "nats-jetstream.yaml"})
  void oneByteMessagesCarryTheHeaderInAMessageHeader(String file) {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 500, Duration.ofSeconds(2), 1);
    RunReport report = run.run(Path.of(file), OVERRIDES, scratch);
    assertEquals(List.of(), run.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("NATS message header 'Plumb'", facts.get(BrokerFactNames.HEADER_METADATA));
    assertEquals("60", facts.get(BrokerFactNames.HEADER_METADATA_BYTES));
    assertEquals("metadata", facts.get(HeaderPlacement.FACT));
    assertEquals(
        "NATS message header 'Plumb', +60 bytes per message on the wire beside each 1-byte"
            + " payload",
        facts.get(HeaderPlacement.DETAIL_FACT));
    // 2 s at 500 msg/s: about 1,000 end-to-end latencies, timed from the header's send time.
    assertTrue(
        report.measured().endToEndLatency().getTotalCount() > 500,
        report.measured().endToEndLatency().getTotalCount() + " end-to-end latencies");
  }

  /**
   * A stream holding messages with the header in a message header and messages with it in the
   * payload: the final read decides per message, and hands each over once, the first kind apart.
   */
  @Test
  void theFinalReadHandsTheHeaderApartMessageByMessage() throws Exception {
    String topic = "plumb-metaread-" + UUID.randomUUID().toString().substring(0, 8);
    int perKind = 200;
    NatsBenchmarkDriver driver = new NatsBenchmarkDriver(Map.of());
    driver.initialize(DriverSettingsReader.config(Path.of("nats-jetstream.yaml"), OVERRIDES));
    try (driver) {
      driver.createTopic(topic, 2).get();
      CopyOnWriteArrayList<Throwable> failures = new CopyOnWriteArrayList<>();
      CountDownLatch acked = new CountDownLatch(2 * perKind);
      SendListener completion =
          (token, failure) -> {
            if (failure != null) {
              failures.add(failure);
            }
            acked.countDown();
          };
      try (BenchmarkProducer producer = driver.createProducer(topic).get(60, TimeUnit.SECONDS)) {
        byte[] header = new byte[MessageHeader.SIZE];
        byte[] body = new byte[1];
        byte[] payload = new byte[MessageHeader.SIZE + 1];
        for (int seq = 0; seq < 2 * perKind; seq++) {
          // Even sequences carry the header in a message header, odd ones in the payload; the
          // arrays are reused as the framework reuses its buffers.
          if (seq % 2 == 0) {
            MessageHeader.write(header, MessageHeader.KIND_LOAD, 25, 0, seq, System.nanoTime());
            body[0] = (byte) seq;
            producer.send(null, header, body, seq, completion);
          } else {
            MessageHeader.write(payload, MessageHeader.KIND_LOAD, 25, 0, seq, System.nanoTime());
            payload[MessageHeader.SIZE] = (byte) seq;
            producer.send(null, payload, seq, completion);
          }
        }
        assertTrue(acked.await(60, TimeUnit.SECONDS), "acknowledgements did not all arrive");
      }
      assertEquals(List.of(), failures);

      Received read = new Received();
      driver.readToEnd(topic, "sub-a", read, Duration.ofSeconds(60));

      assertEquals(List.of(), read.errors);
      assertEquals(perKind, read.withHeaderApart.get(), "messages handed over with header apart");
      assertEquals(perKind, read.plain.get(), "messages handed over plain");
      for (long seq = 0; seq < 2 * perKind; seq++) {
        AtomicInteger n = read.times.get(seq);
        assertEquals(1, n == null ? 0 : n.get(), "sequence " + seq + " read");
      }
      driver.deleteTopics(List.of(topic)).get();
    }
  }

  /** Counts both kinds of delivery and checks each message's bytes; errors are recorded. */
  private static final class Received implements MessageListener {
    final AtomicInteger withHeaderApart = new AtomicInteger();
    final AtomicInteger plain = new AtomicInteger();
    final Map<Long, AtomicInteger> times = new ConcurrentHashMap<>();
    final List<String> errors = new CopyOnWriteArrayList<>();

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      long seq = MessageHeader.sequence(header);
      if (header.length != MessageHeader.SIZE
          || !MessageHeader.isFromRun(header, 25)
          || seq % 2 != 0
          || payload.length != 1
          || payload[0] != (byte) seq) {
        errors.add("metadata message " + seq + ": body of " + payload.length + " bytes");
      }
      withHeaderApart.incrementAndGet();
      times.computeIfAbsent(seq, k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void received(byte[] payload, int partition) {
      long seq = MessageHeader.sequence(payload);
      if (payload.length != MessageHeader.SIZE + 1
          || !MessageHeader.isFromRun(payload, 25)
          || seq % 2 != 1
          || payload[MessageHeader.SIZE] != (byte) seq) {
        errors.add("plain message " + seq + ": " + payload.length + " bytes");
      }
      plain.incrementAndGet();
      times.computeIfAbsent(seq, k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void failed(Throwable error) {
      errors.add(String.valueOf(error));
    }
  }
}
