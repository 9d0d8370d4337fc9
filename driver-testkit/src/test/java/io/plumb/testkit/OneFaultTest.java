package io.plumb.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.fault.FaultPlan;
import io.plumb.fault.FaultSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan a cluster test writes is one the framework reads as meant. */
class OneFaultTest {
  @TempDir Path scratch;

  @Test
  void theWrittenPlanHoldsTheOneFaultAndTheDrainWait() throws Exception {
    Path file = new OneFault("kill", "leader", 8, 10, 15).writeTo(scratch.resolve("plan.yaml"));
    assertEquals(
        "drainIdle: 15s\nfaults:\n  - at: 8s\n    action: kill\n    target: leader\n"
            + "    duration: 10s\n",
        Files.readString(file));
    FaultPlan plan = FaultPlan.read(file);
    assertEquals(Duration.ofSeconds(15), plan.drainIdle());
    assertEquals(1, plan.faults().size(), plan.toString());
    FaultSpec fault = plan.faults().get(0);
    assertEquals(Duration.ofSeconds(8), fault.at());
    assertEquals(Optional.of(Duration.ofSeconds(10)), fault.duration());
    assertTrue(fault.toString().toLowerCase().contains("kill"), fault.toString());
    assertTrue(fault.toString().toLowerCase().contains("leader"), fault.toString());
  }
}
