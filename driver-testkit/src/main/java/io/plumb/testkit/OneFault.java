package io.plumb.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A fault plan of one fault, as a cluster test runs it: {@code action} on {@code target} {@code
 * atSeconds} into the measured phase, undone {@code durationSeconds} later, and consumers idle for
 * {@code drainIdleSeconds} ending the drain (a lost message never comes, so waiting the default 30
 * s for it only slows the test; the final read then says what is missing). The plan format is the
 * one of docs/guides/faults.md.
 */
public record OneFault(
    String action, String target, int atSeconds, int durationSeconds, int drainIdleSeconds) {

  /** The plan's YAML. */
  public String yaml() {
    return String.join(
        "\n",
        "drainIdle: " + drainIdleSeconds + "s",
        "faults:",
        "  - at: " + atSeconds + "s",
        "    action: " + action,
        "    target: " + target,
        "    duration: " + durationSeconds + "s",
        "");
  }

  /** Writes the plan to {@code file} and returns it. */
  public Path writeTo(Path file) throws IOException {
    return Files.writeString(file, yaml());
  }
}
