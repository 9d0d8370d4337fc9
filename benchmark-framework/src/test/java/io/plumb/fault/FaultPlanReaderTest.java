package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultPlanReaderTest {
  @TempDir Path dir;

  @Test
  void readsEveryActionTargetAndTimeForm() throws IOException {
    FaultPlan plan =
        read(
            "stallAfter: 500ms",
            "drainIdle: 45s",
            "faults:",
            "  - at: 20s",
            "    action: kill",
            "    target: leader",
            "    duration: 10s",
            "  - at: 1.5",
            "    action: freeze",
            "    target: node 2",
            "    duration: 250ms",
            "  - at: 1m",
            "    action: partition",
            "    target: followers",
            "    duration: 2s",
            "  - at: 70s",
            "    action: restart",
            "    target: node broker");
    assertEquals(Duration.ofMillis(500), plan.stallAfter());
    assertEquals(Duration.ofSeconds(45), plan.drainIdle());
    List<FaultSpec> faults = plan.faults();
    assertEquals(4, faults.size());
    assertEquals(
        new FaultSpec(
            1,
            4,
            Duration.ofSeconds(20),
            FaultAction.KILL,
            new FaultTarget(FaultTarget.Kind.LEADER, Optional.empty()),
            Optional.of(Duration.ofSeconds(10))),
        faults.get(0));
    assertEquals(Duration.ofMillis(1500), faults.get(1).at());
    assertEquals(Optional.of(Duration.ofMillis(250)), faults.get(1).duration());
    assertEquals("node 2", faults.get(1).target().toString());
    assertEquals(Duration.ofMinutes(1), faults.get(2).at());
    assertEquals(FaultTarget.Kind.FOLLOWERS, faults.get(2).target().kind());
    assertEquals(Optional.of("broker"), faults.get(3).target().node());
    assertEquals(Optional.empty(), faults.get(3).duration());
    assertEquals(
        FaultPlan.DEFAULT_STALL_AFTER,
        read("faults:", "  - {at: 1s, action: kill, target: random}").stallAfter());
    FaultSpec powerLoss =
        read("faults:", "  - {at: 1s, action: power-loss, target: all, duration: 5s}")
            .faults()
            .get(0);
    assertEquals(FaultAction.POWER_LOSS, powerLoss.action());
    assertEquals(FaultTarget.Kind.ALL, powerLoss.target().kind());
    assertEquals("all", powerLoss.target().toString());
  }

  @Test
  void targetsAreNamedByWhatTheyAre() throws IOException {
    FaultPlan plan =
        read(
            "faults:",
            "  - {at: 1s, action: kill, target: primary}",
            "  - {at: 2s, action: kill, target: broker-owner}",
            "  - {at: 3s, action: kill, target: bookie}",
            "  - {at: 4s, action: kill, target: leader}");
    List<FaultTarget.Kind> kinds = plan.faults().stream().map(f -> f.target().kind()).toList();
    assertEquals(
        List.of(
            FaultTarget.Kind.PRIMARY,
            FaultTarget.Kind.BROKER_OWNER,
            FaultTarget.Kind.BOOKIE,
            FaultTarget.Kind.LEADER),
        kinds);
    assertEquals(
        List.of("primary", "broker-owner", "bookie", "leader"),
        plan.faults().stream().map(f -> f.target().toString()).toList());
    assertEquals(Optional.of("bookie"), plan.faults().get(2).target().roleWord());
    assertEquals(
        "kill broker-owner at 2 s", plan.faults().get(1).describe(), "as the console shows it");
    // A role is resolved by the driver; "followers" too (relative to its first role).
    assertTrue(plan.faults().get(0).target().needsDriver());
    assertFalse(
        read("faults:", "  - {at: 1s, action: kill, target: node 2}")
            .faults()
            .get(0)
            .target()
            .needsDriver());
  }

  @Test
  void aRoleSpeltTheWayAnotherToolSpellsItIsRefused() {
    assertRefused(
        ":2: fault 1: field 'target': 'broker_owner' is not a target; allowed: leader | primary | broker-owner | bookie | followers | all | random | node N (a node number or name)",
        "faults:",
        "  - at: 1s",
        "    action: kill",
        "    target: broker_owner");
    assertRefused(
        ":2: fault 1: field 'target': 'master' is not a target; allowed: leader | primary | broker-owner | bookie | followers | all | random | node N (a node number or name)",
        "faults:",
        "  - {at: 1s, action: kill, target: master}");
  }

  @Test
  void badPlansAreOneLineNamingFileEntryFieldAndWhatIsAllowed() {
    assertRefused(
        ":2: fault 1: field 'action': 'explode' is not an action; allowed: kill | freeze | isolate | partition | restart | power-loss",
        "faults:",
        "  - at: 1s",
        "    action: explode",
        "    target: leader");
    assertRefused(
        ":2: fault 1: field 'target': 'the leader' is not a target; allowed: leader | primary | broker-owner | bookie | followers | all | random | node N (a node number or name)",
        "faults:",
        "  - at: 1s",
        "    action: kill",
        "    target: the leader");
    assertRefused(
        ":2: fault 1: field 'duration' is required for freeze (when the node is let go again), e.g. duration: 10s",
        "faults:",
        "  - at: 1s",
        "    action: freeze",
        "    target: node 1");
    assertRefused(
        ":6: fault 2: field 'at': 'soon' is not a time; use e.g. 20s, 1.5s, 500ms or 2m",
        "faults:",
        "  - at: 1s",
        "    action: kill",
        "    target: node 1",
        "",
        "  - at: soon",
        "    action: kill",
        "    target: node 2");
    assertRefused(
        ":2: fault 1: unknown field 'durration'; an entry has at, action, target and duration",
        "faults:",
        "  - at: 1s",
        "    action: isolate",
        "    target: node 1",
        "    durration: 5s");
    assertRefused(
        ":1: unknown field 'fault'; a fault plan has faults, stallAfter and drainIdle",
        "fault:",
        "  - at: 1s");
    assertRefused(
        ": field 'faults' must be a list of entries (at, action, target, duration)",
        "stallAfter: 1s");
    assertRefused(
        ":2: fault 1: field 'at' is required", "faults:", "  - action: kill", "    target: node 1");
  }

  private void assertRefused(String ending, String... lines) {
    BadInputException refused = assertThrows(BadInputException.class, () -> read(lines));
    String expected = dir.resolve("plan.yaml") + ending;
    assertEquals(expected, refused.getMessage());
  }

  private FaultPlan read(String... lines) throws IOException {
    Path file = dir.resolve("plan.yaml");
    Files.writeString(file, String.join("\n", lines) + "\n");
    return FaultPlan.read(file);
  }
}
