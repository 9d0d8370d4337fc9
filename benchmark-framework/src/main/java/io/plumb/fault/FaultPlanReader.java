package io.plumb.fault;

import io.plumb.input.BadInputException;
import io.plumb.input.YamlTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads a fault plan file. Everything that can be checked without the cluster is checked here:
 * field names (a misspelt one is an error, never ignored), actions, targets, times, and that
 * freeze, isolate and partition say when they end.
 */
final class FaultPlanReader {
  private static final Set<String> PLAN_FIELDS = Set.of("faults", "stallAfter", "drainIdle");
  private static final Set<String> FAULT_FIELDS = Set.of("at", "action", "target", "duration");

  private FaultPlanReader() {}

  static FaultPlan read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new BadInputException(file + ": cannot read the fault plan: " + e.getMessage());
    }
    YamlTree tree = YamlTree.parse(file.toString(), text);
    Map<String, Object> values = tree.values();
    for (String field : values.keySet()) {
      if (!PLAN_FIELDS.contains(field)) {
        throw new BadInputException(
            where(file, tree, field)
                + ": unknown field '"
                + field
                + "'; a fault plan has faults, stallAfter and drainIdle");
      }
    }
    Duration stallAfter =
        optionalTime(file, tree, values, "stallAfter").orElse(FaultPlan.DEFAULT_STALL_AFTER);
    Duration drainIdle =
        optionalTime(file, tree, values, "drainIdle").orElse(FaultPlan.DEFAULT_DRAIN_IDLE);
    if (stallAfter.isZero()) {
      throw new BadInputException(
          where(file, tree, "stallAfter") + ": field 'stallAfter' must be above 0");
    }
    if (!(values.get("faults") instanceof List<?> entries) || entries.isEmpty()) {
      throw new BadInputException(
          where(file, tree, "faults")
              + ": field 'faults' must be a list of entries (at, action, target, duration)");
    }
    List<FaultSpec> faults = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      faults.add(entry(file, tree, i, entries.get(i)));
    }
    return new FaultPlan(file, stallAfter, drainIdle, faults);
  }

  private static FaultSpec entry(Path file, YamlTree tree, int i, Object value) {
    String prefix = "faults.[" + i + "].";
    int line =
        tree.lines().entrySet().stream()
            .filter(e -> e.getKey().startsWith(prefix))
            .mapToInt(Map.Entry::getValue)
            .min()
            .orElse(tree.lines().getOrDefault("faults", 0));
    String where = file + ":" + line + ": fault " + (i + 1);
    if (!(value instanceof Map<?, ?> fields)) {
      throw new BadInputException(
          where + ": each entry is a mapping with at, action, target and duration");
    }
    for (Object field : fields.keySet()) {
      if (!FAULT_FIELDS.contains(String.valueOf(field))) {
        throw new BadInputException(
            where
                + ": unknown field '"
                + field
                + "'; an entry has at, action, target and duration");
      }
    }
    Duration at =
        Durations.parse(required(where, fields, "at"))
            .orElseThrow(() -> timeError(where, "at", fields.get("at")));
    FaultAction action =
        oneOf(where, fields, "action", FaultAction::parse, "an action", FaultAction.allowed());
    FaultTarget target =
        oneOf(where, fields, "target", FaultTarget::parse, "a target", FaultTarget.ALLOWED);
    Optional<Duration> duration = Optional.empty();
    if (fields.containsKey("duration")) {
      duration =
          Optional.of(
              Durations.parse(fields.get("duration"))
                  .filter(d -> !d.isZero() || !action.needsDuration())
                  .orElseThrow(() -> timeError(where, "duration", fields.get("duration"))));
    } else if (action.needsDuration()) {
      throw new BadInputException(
          where
              + ": field 'duration' is required for "
              + action.word()
              + " (when the node is let go again), e.g. duration: 10s");
    }
    return new FaultSpec(i + 1, line, at, action, target, duration);
  }

  private static Object required(String where, Map<?, ?> fields, String field) {
    Object value = fields.get(field);
    if (value == null) {
      throw new BadInputException(where + ": field '" + field + "' is required");
    }
    return value;
  }

  /**
   * Required field {@code field} as {@code parse} reads it; otherwise a one-line error saying the
   * value is not {@code what} and listing what is {@code allowed}.
   */
  private static <T> T oneOf(
      String where,
      Map<?, ?> fields,
      String field,
      Function<String, Optional<T>> parse,
      String what,
      String allowed) {
    String text = String.valueOf(required(where, fields, field));
    return parse
        .apply(text)
        .orElseThrow(
            () ->
                new BadInputException(
                    where
                        + ": field '"
                        + field
                        + "': '"
                        + text
                        + "' is not "
                        + what
                        + "; allowed: "
                        + allowed));
  }

  private static BadInputException timeError(String where, String field, Object value) {
    return new BadInputException(
        where
            + ": field '"
            + field
            + "': '"
            + value
            + "' is not a time; use e.g. 20s, 1.5s, 500ms or 2m");
  }

  private static Optional<Duration> optionalTime(
      Path file, YamlTree tree, Map<String, Object> values, String field) {
    if (!values.containsKey(field)) {
      return Optional.empty();
    }
    Object value = values.get(field);
    return Optional.of(
        Durations.parse(value)
            .orElseThrow(
                () ->
                    timeError(
                        where(file, tree, field).replaceFirst(": fault.*", ""), field, value)));
  }

  private static String where(Path file, YamlTree tree, String field) {
    Integer line = tree.lines().get(field);
    return line == null ? file.toString() : file + ":" + line;
  }
}
