package io.plumb.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.cli.Main;
import io.plumb.cli.WorkerMain;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/reference/cli.md is every command's {@code --help}, as the build prints it: a changed option
 * fails the build until the page is written again, so the page cannot go stale. Writing it: {@code
 * mvn -q -pl benchmark-framework test -Dtest=CliReferenceTest -Dplumb.writeDocs=true}.
 */
class CliReferenceTest {
  static final String PAGE = "docs/reference/cli.md";

  @Test
  void thePageIsTheCommandsOwnHelp() throws IOException {
    Path page = MarkdownFile.projectRoot().resolve(PAGE);
    String expected = page();
    if (Boolean.getBoolean("plumb.writeDocs")) {
      Files.writeString(page, expected);
    }
    String actual = Files.exists(page) ? Files.readString(page) : "";
    assertEquals(
        expected,
        actual,
        PAGE
            + " differs from the commands' --help: write it again with"
            + " mvn -q -pl benchmark-framework test -Dtest=CliReferenceTest -Dplumb.writeDocs=true");
  }

  private static String page() {
    StringBuilder page = new StringBuilder();
    page.append("# Command-line reference\n\n")
        .append("Each command's own `--help`, as this version prints it. The build writes nothing")
        .append(" here: a test\n(`CliReferenceTest`) fails when an option changes and this page")
        .append(" does not, and\n`mvn -q -pl benchmark-framework test -Dtest=CliReferenceTest")
        .append(" -Dplumb.writeDocs=true` writes it\nagain. How to read the figures a run prints:")
        .append(" [How Plumb measures](../concepts/how-plumb-measures.md).\n");
    section(page, "bin/benchmark", help(false, "--help"));
    section(page, "bin/benchmark report", help(false, "report", "--help"));
    section(page, "bin/benchmark compare", help(false, "compare", "--help"));
    section(page, "bin/benchmark-worker", help(true, "--help"));
    return page.toString();
  }

  private static void section(StringBuilder page, String command, String help) {
    page.append("\n## `")
        .append(command)
        .append("`\n\n```text\n")
        .append(help.strip())
        .append("\n```\n");
  }

  private static String help(boolean worker, String... args) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8);
    int status = worker ? WorkerMain.run(args, print, print) : Main.run(args, print, print);
    assertEquals(0, status, output.toString(StandardCharsets.UTF_8));
    return output.toString(StandardCharsets.UTF_8).replaceAll("[ \t]+\n", "\n");
  }
}
