package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

/**
 * How a command line that Plumb refuses must end, whatever refused it: exit status 2 and one line
 * on standard error. Test code only.
 */
final class OneLineRefusal {
  private OneLineRefusal() {}

  /** {@code run} exited with status 2 and printed {@code line} alone on standard error. */
  static void assertRefusedInOneLine(CommandLineRun run, String line) {
    assertEquals(2, run.status(), run.err());
    assertEquals(List.of(line), run.errorLines());
  }
}
