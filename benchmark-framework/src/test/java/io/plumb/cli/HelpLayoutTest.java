package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.report.ReportCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Every command's --help, rendered as a pipe gets it: no line over 80 columns, and no word, path or
 * address split across lines (every word printed is a word of the texts written in the code).
 */
class HelpLayoutTest {

  @ParameterizedTest
  @ValueSource(strings = {"benchmark", "benchmark report", "benchmark compare", "benchmark-worker"})
  void helpFitsEightyColumnsWithoutSplittingAWord(String command) {
    String help = render(command);
    List<String> tooLong = help.lines().filter(line -> line.length() > 80).toList();
    assertEquals(List.of(), tooLong, help);

    Set<String> written = wordsWrittenFor(spec(command));
    List<String> split = new ArrayList<>();
    for (String word : help.split("\\s+")) {
      if (!word.isEmpty() && !written.contains(word)) {
        split.add(word);
      }
    }
    assertEquals(List.of(), split, "words not written as such in the code:\n" + help);
    assertTrue(help.contains("Examples:"), help);
  }

  private static String render(String command) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    BiFunction<String[], PrintStream, Integer> main =
        command.equals("benchmark-worker")
            ? (args, stream) -> WorkerMain.run(args, stream, stream)
            : (args, stream) -> Main.run(args, stream, stream);
    String[] args =
        command.startsWith("benchmark ")
            ? new String[] {command.substring("benchmark ".length()), "--help"}
            : new String[] {"--help"};
    // picocli reports a description it cannot format (a lone '%') on System.err, and prints the
    // text unformatted: the help looks right while the warning reaches every user's terminal.
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      assertEquals(0, main.apply(args, print));
    } finally {
      System.setErr(stderr);
    }
    assertEquals("", warnings.toString(StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }

  private static CommandSpec spec(String command) {
    PrintStream ignored =
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    Object annotated =
        switch (command) {
          case "benchmark" -> new BenchmarkCommand(ignored);
          case "benchmark report" -> new ReportCommand(ignored);
          case "benchmark compare" -> new io.plumb.compare.CompareCommand(ignored);
          default -> new WorkerCommand(ignored);
        };
    return new CommandLine(annotated).getCommandSpec();
  }

  /** Words of every text the help is made of, and of the names and labels it lays out. */
  private static Set<String> wordsWrittenFor(CommandSpec spec) {
    List<String> texts = new ArrayList<>();
    texts.addAll(Arrays.asList(spec.usageMessage().description()));
    texts.addAll(Arrays.asList(spec.usageMessage().footer()));
    texts.add("Usage: [OPTIONS] Arguments: Options: " + spec.name());
    for (OptionSpec option : spec.options()) {
      texts.addAll(Arrays.asList(option.description()));
      for (String name : option.names()) {
        texts.add(name + ",");
        texts.add(name);
      }
      String label = option.paramLabel();
      texts.add(label);
      texts.add(label + "[" + option.splitRegex() + label + "...]");
    }
    for (PositionalParamSpec parameter : spec.positionalParameters()) {
      texts.addAll(Arrays.asList(parameter.description()));
      texts.add(parameter.paramLabel() + "...");
    }
    Set<String> words = new HashSet<>();
    for (String text : texts) {
      for (String word : text.replace("%n", " ").replace("%%", "%").split("\\s+")) {
        words.add(word);
      }
    }
    return words;
  }
}
