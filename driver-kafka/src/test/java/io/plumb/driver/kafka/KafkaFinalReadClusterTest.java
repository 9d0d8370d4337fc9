package io.plumb.driver.kafka;

import static io.plumb.testkit.ResultReading.summary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.Counters;
import io.plumb.result.FinalReadFigures;
import io.plumb.result.RunReport;
import io.plumb.testkit.OneFault;
import io.plumb.testkit.SmokeRun;
import io.plumb.testkit.WholeCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loss judged by the final read on the local 3-node cluster ({@code deploy/local/kafka.sh start
 * --nodes 3}; runs only with {@code -Pcluster}): the durable file, the leader killed for 8 s, and
 * consumers held back from 22 s into the load to its end, as a consumer slow to come back after a
 * fault would be. The drain gives up on them after 5 idle seconds, which used to call every message
 * they had not read lost; the final read finds them on the broker, so nothing is lost, and it reads
 * exactly as many messages as the broker's end offsets say the topic holds.
 */
class KafkaFinalReadClusterTest {
  private static final int RATE = 2_000;
  private static final SmokeRun RUN = new SmokeRun(2, 1, 1, 1, RATE, Duration.ofSeconds(30), 1024);
  private static final Pattern END_TOTAL = Pattern.compile("= ([0-9,]+) on 2 partition");

  @TempDir Path scratch;

  @RegisterExtension static final WholeCluster CLUSTER = LocalKafkaCluster.WHOLE_FOR_EACH_TEST;

  @AfterAll
  static void holdNothingBack() {
    HeldBackKafkaDriver.holdBackAfterMessages = Long.MAX_VALUE;
  }

  @Test
  void consumersSlowToComeBackLoseNothingAndTheReadMatchesTheEndOffsets() throws Exception {
    // 1 s of warm-up and 21 s of measured load at 2,000 msg/s: after the fault is healed (at 14 s).
    HeldBackKafkaDriver.holdBackAfterMessages = 22L * RATE;
    Path driver = scratch.resolve("kafka-replicated-held-back.yaml");
    Files.writeString(
        driver,
        Files.readString(Path.of("kafka-replicated.yaml"))
            .replace(
                "driverClass: io.plumb.driver.kafka.KafkaBenchmarkDriver",
                "driverClass: " + HeldBackKafkaDriver.class.getName()));
    Path plan =
        new OneFault("kill", "leader", 6, 8, 5).writeTo(scratch.resolve("kill-leader.yaml"));

    RunReport report = RUN.runWithFaults(driver, plan, Map.of(), scratch);

    String summary = summary(report);
    assertTrue(report.complete(), summary);
    assertNull(report.faults().get(0).error(), summary);
    Counters c = report.counters();
    FinalReadFigures read = report.finalRead();
    assertTrue(read.ran(), summary);
    assertTrue(
        c.acknowledged() - c.received() > 5 * RATE,
        "the consumers were held back for the last seconds: " + summary);
    assertTrue(read.acknowledgedFoundOnlyByRead() > 5 * RATE, summary);
    assertEquals(0, c.lost(), summary);
    assertEquals(0, c.inFlight(), summary);
    String end = read.endByTopic().values().iterator().next();
    Matcher total = END_TOTAL.matcher(end);
    assertTrue(total.find(), end);
    assertEquals(Long.parseLong(total.group(1).replace(",", "")), read.messagesRead(), summary);
    System.out.println("kafka-replicated.yaml, consumers held back: " + summary);
  }
}
