package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.message.HeaderPlacement;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Messages smaller than Plumb's header on the local broker: the header travels as a record header,
 * the payload is the body alone, and every message arrives once with its end-to-end latency.
 */
class KafkaMetadataHeaderTest {

  @TempDir Path scratch;

  @Test
  void oneByteMessagesCarryTheHeaderInARecordHeader() {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 500, Duration.ofSeconds(2), 1);
    RunReport report = run.run(Path.of("kafka.yaml"), Map.of(), scratch);
    assertEquals(List.of(), run.deliveryProblems(report));
    assertEquals("metadata", report.brokerFacts().get(HeaderPlacement.FACT));
    assertEquals(
        "Kafka record header 'plumb', +33 bytes per message on the wire beside each 1-byte payload",
        report.brokerFacts().get(HeaderPlacement.DETAIL_FACT));
    // 2 s at 500 msg/s: about 1,000 end-to-end latencies, timed from the header's send time.
    assertTrue(
        report.measured().endToEndLatency().getTotalCount() > 500,
        report.measured().endToEndLatency().getTotalCount() + " end-to-end latencies");
  }
}
