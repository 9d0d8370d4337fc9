package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's table of a --repeat summary prints the figures the console prints. */
class RepeatSectionTest {

  @Test
  void aLoopbackLatencyUnderTenMicrosecondsIsNotPrintedAsZero() {
    // The recorded loopback A/A runs have a p50 of 0.000457 ms; three decimals read 0.000.
    ObjectNode summary = new ObjectMapper().createObjectNode();
    summary.put("repeat", 5);
    ObjectNode pair = summary.putArray("pairs").addObject();
    pair.put("workload", "short-loopback");
    pair.put("driverFile", "loopback.yaml");
    ObjectNode p50 = pair.putObject("metrics").putObject("publish p50");
    p50.put("unit", "ms");
    p50.put("estimate", 0.000457);
    p50.put("min", 0.000401);
    p50.put("max", 0.000612);
    ObjectNode interval = p50.putObject("interval");
    interval.put("low", 0.000431);
    interval.put("high", 0.000503);
    interval.put("level", 0.9375);

    String html = RepeatSection.render(List.of(summary));

    assertTrue(
        html.contains(
            "<td>0.000457</td><td>93.8% 0.000431 to 0.000503</td><td>0.000401</td>"
                + "<td>0.000612</td>"),
        html);
  }
}
