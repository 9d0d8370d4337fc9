package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The set-up line names what was set up, and the result's figures agree with it. */
class SetupFiguresTest {

  @Test
  void theSetUpLineCountsTheEntitiesAndTheResultKeepsTheFigures() {
    RunPlan plan =
        new RunPlan(
            List.of(new TopicSpec("t0", 1), new TopicSpec("t1", 1)),
            List.of(new ConsumerSpec("t0", "s"), new ConsumerSpec("t1", "s")),
            List.of(
                new ProducerSpec(0, "t0"), new ProducerSpec(1, "t1"), new ProducerSpec(2, "t1")),
            Map.of("t0/s", "t0", "t1/s", "t1"),
            1000);
    SetupFigures figures = new SetupFigures();

    String line = figures.setUpDone(plan);

    assertTrue(
        line.matches(
            "set up in \\d+\\.\\d s: 2 topic\\(s\\), 3 producer\\(s\\), 2 consumer\\(s\\);"
                + " heap in use .+ of .+"),
        line);
    Map<String, Object> described = figures.describe();
    assertTrue((Double) described.get("setupSeconds") >= 0, described.toString());
    assertTrue((Long) described.get("heapUsedAfterSetupBytes") > 0, described.toString());
    // Five clients are far from the count at which set-up's garbage is collected first.
    assertEquals(false, described.get("heapCollectedBeforeReading"));
    assertEquals(null, described.get("teardownSeconds"));
  }
}
