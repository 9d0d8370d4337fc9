package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultGoodputTimelineTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void eachFaultsGoodputIsDrawnAtTheEndOfItsSlicesAndSharedSlicesOnce() throws Exception {
    JsonNode result =
        MAPPER.readTree(
            """
            {"faults": [
              {"unavailability": {"goodput":
                {"fromSeconds": 7.0, "sliceSeconds": 0.1,
                 "acknowledgedPerSecond": [2000, 0, 1000]}}},
              {"unavailability": {"goodput":
                {"fromSeconds": 7.2, "sliceSeconds": 0.1,
                 "acknowledgedPerSecond": [1000, 2000]}}},
              {"appliedSeconds": null}
            ]}
            """);

    List<Timeline.Point> points = Timeline.of(result, Timeline.FAULT_GOODPUT);

    assertPoints(points, new double[] {7.1, 7.2, 7.3, 7.4}, new double[] {2000, 0, 1000, 2000});
  }

  @Test
  void faultsListedOutOfTimeOrderAllHaveTheirGoodputDrawnInTimeOrder() throws Exception {
    // A plan need not list its faults in time order: here the one at 30 s comes first.
    JsonNode result =
        MAPPER.readTree(
            """
            {"faults": [
              {"unavailability": {"goodput":
                {"fromSeconds": 29.9, "sliceSeconds": 0.1,
                 "acknowledgedPerSecond": [2000, 0, 1000]}}},
              {"unavailability": {"goodput":
                {"fromSeconds": 9.9, "sliceSeconds": 0.1,
                 "acknowledgedPerSecond": [2000, 500, 1500]}}}
            ]}
            """);

    List<Timeline.Point> points = Timeline.of(result, Timeline.FAULT_GOODPUT);

    assertPoints(
        points,
        new double[] {10.0, 10.1, 10.2, 30.0, 30.1, 30.2},
        new double[] {2000, 500, 1500, 2000, 0, 1000});
  }

  @Test
  void theAcknowledgedRateIsATimelineOfItsOwn() throws Exception {
    JsonNode result =
        MAPPER.readTree(
            """
            {"periodSeconds": [1, 1], "publishRate": [2000, 2000], "acknowledgeRate": [2000, 0]}
            """);
    List<Timeline.Point> acknowledged = Timeline.of(result, "acknowledgeRate");
    assertEquals(List.of(new Timeline.Point(1, 2000), new Timeline.Point(2, 0)), acknowledged);
  }

  /** {@code points} stand at {@code seconds} with {@code rates}, in that order and no others. */
  private static void assertPoints(List<Timeline.Point> points, double[] seconds, double[] rates) {
    assertEquals(seconds.length, points.size(), points.toString());
    for (int i = 0; i < points.size(); i++) {
      assertEquals(seconds[i], points.get(i).seconds(), 1e-9);
      assertEquals(rates[i], points.get(i).value(), 1e-9);
    }
  }
}
