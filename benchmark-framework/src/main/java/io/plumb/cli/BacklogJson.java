package io.plumb.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.coordinator.BacklogOutcome;
import io.plumb.coordinator.BenchmarkRun;

/** The {@code backlog} object of a backlog workload's result: build and drain rates and times. */
final class BacklogJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private BacklogJson() {}

  static void add(ObjectNode json, BenchmarkRun run) {
    run.backlogOutcome().ifPresent(outcome -> json.set("backlog", render(outcome)));
  }

  static ObjectNode render(BacklogOutcome outcome) {
    ObjectNode node = MAPPER.valueToTree(outcome);
    node.put(
        "definition",
        "messages acknowledged but not yet received, summed over subscriptions; built with consumers paused, drained to (1 - backlogDrainRatio) of the target, at least 1,000 messages");
    return node;
  }
}
