package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkProducer;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Messages smaller than Plumb's header on the local standalone broker (deploy/local/pulsar.sh
 * start): the header travels as a message property, the payload is the body alone, and every
 * message arrives once with its end-to-end latency; the final read hands such messages on with
 * their header apart, and plain ones whole. Batched and unbatched, as the property then lives in a
 * different part of the message's metadata.
 */
class PulsarMetadataHeaderTest {
  private static final int RUN_ID = 31;
  private static final int PARTITIONS = 3;
  private static final int MESSAGES = 400;

  @TempDir Path scratch;

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void oneByteMessagesCarryTheHeaderInAMessageProperty(boolean batching) {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 500, Duration.ofSeconds(2), 1);
    RunReport report =
        run.run(
            Path.of("pulsar.yaml"),
            Map.of("producer.batchingEnabled", String.valueOf(batching)),
            scratch);
    assertEquals(List.of(), run.deliveryProblems(report));
    assertEquals("metadata", report.brokerFacts().get(HeaderPlacement.FACT));
    assertEquals(
        "Pulsar message property 'plumb', +46 bytes per message on the wire beside each 1-byte"
            + " payload",
        report.brokerFacts().get(HeaderPlacement.DETAIL_FACT));
    // 2 s at 500 msg/s: about 1,000 end-to-end latencies, timed from the header's send time.
    assertTrue(
        report.measured().endToEndLatency().getTotalCount() > 500,
        report.measured().endToEndLatency().getTotalCount() + " end-to-end latencies");
  }

  /**
   * Even sequences go with the header as a property and a 1-byte body, odd ones plain with the
   * header in front of the body; the final read must tell them apart message by message. One header
   * array is rewritten for every send, so a driver that kept it past send() would be caught.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void theFinalReadHandsEachMessageOnAsItTravelled(boolean batching) throws Exception {
    try (PulsarBenchmarkDriver driver = new PulsarBenchmarkDriver()) {
      driver.initialize(
          DriverSettingsReader.config(
              Path.of("pulsar.yaml"),
              Map.of("producer.batchingEnabled", String.valueOf(batching))));
      String topic = driver.topicNamePrefix() + "-header-" + System.nanoTime();
      driver.createTopic(topic, PARTITIONS).get(60, TimeUnit.SECONDS);
      produce(driver.createProducer(topic).get(60, TimeUnit.SECONDS));

      Received read = new Received();
      driver.readToEnd(topic, "sub", read, Duration.ofSeconds(60));

      assertEquals(List.of(), read.problems);
      assertEquals(MESSAGES, read.how.size(), "messages read");
      for (long seq = 0; seq < MESSAGES; seq++) {
        assertEquals(seq % 2 == 0 ? "metadata" : "plain", read.how.get(seq), "sequence " + seq);
      }
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    }
  }

  /** Sends every message, keyed so that they spread over the partitions, and waits for each ack. */
  private static void produce(BenchmarkProducer producer) throws Exception {
    CountDownLatch acked = new CountDownLatch(MESSAGES);
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    SendListener done =
        (token, failure) -> {
          if (failure != null) {
            failures.add(failure);
          }
          acked.countDown();
        };
    try (producer) {
      byte[] header = new byte[MessageHeader.SIZE];
      for (long seq = 0; seq < MESSAGES; seq++) {
        if (seq % 2 == 0) {
          MessageHeader.write(header, MessageHeader.KIND_LOAD, RUN_ID, 0, seq, sendTime(seq));
          producer.send("k" + seq, header, new byte[] {(byte) seq}, seq, done);
        } else {
          byte[] payload = new byte[MessageHeader.SIZE + 1];
          MessageHeader.write(payload, MessageHeader.KIND_LOAD, RUN_ID, 0, seq, sendTime(seq));
          payload[MessageHeader.SIZE] = (byte) seq;
          producer.send("k" + seq, payload, seq, done);
        }
      }
      assertTrue(acked.await(120, TimeUnit.SECONDS), "acknowledgements did not all arrive");
    }
    assertEquals(List.of(), failures);
  }

  /** Negative, so every byte of the header's send time is above 127. */
  private static long sendTime(long seq) {
    return ~seq;
  }

  /** How each sequence arrived, "metadata" or "plain", and anything that did not fit. */
  private static final class Received implements MessageListener {
    final Map<Long, String> how = new ConcurrentHashMap<>();
    final List<String> problems = new CopyOnWriteArrayList<>();

    @Override
    public void received(byte[] payload, int partition) {
      check(payload, "plain", payload.length == MessageHeader.SIZE + 1 ? payload[26] : null);
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      check(header, "metadata", payload.length == 1 ? payload[0] : null);
    }

    private void check(byte[] header, String path, Byte body) {
      if (!MessageHeader.isFromRun(header, RUN_ID)) {
        problems.add(path + ": not a header of this test, " + header.length + " bytes");
        return;
      }
      long seq = MessageHeader.sequence(header);
      if (body == null || body != (byte) seq) {
        problems.add(path + ": sequence " + seq + " has the wrong body");
      }
      if (MessageHeader.intendedSendTime(header) != sendTime(seq)) {
        problems.add(path + ": sequence " + seq + " has the wrong send time");
      }
      if (how.put(seq, path) != null) {
        problems.add(path + ": sequence " + seq + " read twice");
      }
    }

    @Override
    public void failed(Throwable error) {
      problems.add("failed: " + error);
    }
  }
}
