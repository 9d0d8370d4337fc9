package io.plumb.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.cli.Main;
import io.plumb.cli.WorkerMain;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every {@code bin/benchmark} and {@code bin/benchmark-worker} command quoted in the project's
 * Markdown still parses with the real command line: a renamed or removed option, or a value of the
 * wrong type, fails it; and every driver, workload and fault file it names exists. A quoted
 * fragment may leave out what the command requires ({@code --drivers}, a workload): the parse fills
 * those in with placeholders, so an unknown option behind a missing one is still found.
 */
class DocumentedCommandsTest {
  private static final Pattern PROJECT_FILE =
      Pattern.compile(
          "^(driver-[a-z]+|workloads|faults|benchmark-framework|payload)/[^*<>]+\\.ya?ml$");

  @Test
  void everyQuotedCommandParsesAndNamesFilesThatExist() {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (MarkdownFile file : MarkdownFile.all()) {
      // Generated from the commands' own help: its examples are the code's, not quotations.
      if (file.name().equals(CliReferenceTest.PAGE)) {
        continue;
      }
      for (MarkdownFile.QuotedCommand quoted : file.quotedCommands()) {
        for (List<String> command : ShellWords.commands(quoted.text())) {
          String program = program(command);
          if (program == null) {
            continue;
          }
          checked++;
          List<String> args = command.subList(command.indexOf(program) + 1, command.size());
          problems.addAll(missingFiles(quoted, args));
          String problem = parseProblem(program, args);
          if (problem != null) {
            problems.add(quoted.where() + ": " + quoted.text() + "\n    " + problem);
          }
        }
      }
    }
    assertTrue(checked >= 40, "found only " + checked + " quoted commands: is the scan broken?");
    assertEquals("", String.join("\n", problems));
  }

  @Test
  void aCommandWithAnOptionTheCliDoesNotHaveIsFound() {
    assertTrue(parseProblem("bin/benchmark", List.of("--no-such-option")).contains("--no-such"));
    assertTrue(parseProblem("bin/benchmark", List.of("--repeat", "five")).contains("five"));
    assertTrue(parseProblem("bin/benchmark-worker", List.of("--drivers", "a.yaml")) != null);
    assertNull(parseProblem("bin/benchmark", List.of("--repeat", "5")));
    assertNull(parseProblem("bin/benchmark", List.of("compare", "a.json", "--", "b.json")));
    assertEquals(
        List.of(List.of("bin/benchmark", "-d", "a b.yaml", "w.yaml"), List.of("echo", "done")),
        ShellWords.commands("bin/benchmark -d 'a b.yaml' w.yaml > out.log 2>&1 && echo done # x"));
  }

  /** The word that runs Plumb, after any VAR=value assignments; null for other commands. */
  private static String program(List<String> command) {
    for (String word : command) {
      if (word.matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
        continue;
      }
      return word.matches("(.*/)?bin/benchmark(-worker)?") ? word : null;
    }
    return null;
  }

  private static List<String> missingFiles(MarkdownFile.QuotedCommand quoted, List<String> args) {
    List<String> missing = new ArrayList<>();
    for (String arg : args) {
      for (String part : arg.split(",")) {
        if (PROJECT_FILE.matcher(part).matches()
            && !Files.isRegularFile(MarkdownFile.projectRoot().resolve(part))) {
          missing.add(quoted.where() + ": names " + part + ", which the project does not have");
        }
      }
    }
    return missing;
  }

  /** Null when {@code args} parse; otherwise picocli's reason. */
  static String parseProblem(String program, List<String> quoted) {
    boolean worker = program.endsWith("-worker");
    String[] all = quoted.toArray(String[]::new);
    List<String> args = new ArrayList<>(List.of(worker ? all : Main.arguments(all)));
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
    for (int attempt = 0; attempt < 3; attempt++) {
      CommandLine commandLine =
          worker ? WorkerMain.commandLine(nowhere) : Main.commandLine(all, nowhere);
      try {
        commandLine.parseArgs(args.toArray(String[]::new));
        return null;
      } catch (CommandLine.MissingParameterException missing) {
        for (ArgSpec spec : missing.getMissing()) {
          if (spec instanceof OptionSpec option) {
            args.addAll(0, List.of(option.longestName(), "placeholder"));
          } else {
            args.add("placeholder");
          }
        }
      } catch (CommandLine.ParameterException e) {
        return e.getMessage();
      }
    }
    return "still missing what it requires after filling it in";
  }
}
