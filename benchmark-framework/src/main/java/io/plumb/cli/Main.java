package io.plumb.cli;

import io.plumb.compare.CompareCommand;
import io.plumb.input.BadInputException;
import io.plumb.input.UnreachableBrokerException;
import io.plumb.report.ReportCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/** Entry point of {@code bin/benchmark}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    OneLineErrors.exitWith(args, Main::run);
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    String sub = subcommand(args);
    String command = sub.isEmpty() ? "bin/benchmark" : "bin/benchmark " + sub;
    return wired(commandLine(args, out), out, err, command).execute(arguments(args));
  }

  /**
   * The command {@code args} address: a run, or the report or comparison when the first argument
   * names it. It parses {@link #arguments(String[])}.
   */
  public static CommandLine commandLine(String[] args, PrintStream out) {
    // `report` is dispatched here rather than as a picocli subcommand: picocli would first demand
    // the run's required --drivers and WORKLOAD, which a report has no use for.
    CommandLine commandLine =
        switch (subcommand(args)) {
          case "report" -> new CommandLine(new ReportCommand(out));
          case "compare" ->
              new CommandLine(new CompareCommand(out))
                  // "--" splits A's results from B's: the command needs to see it, and refuses
                  // the unknown options that come along with it.
                  .setEndOfOptionsDelimiter("--end-of-options")
                  .setUnmatchedOptionsArePositionalParams(true);
          default -> new CommandLine(new BenchmarkCommand(out));
        };
    return HelpLayout.apply(commandLine);
  }

  /** {@code args} without the name of the report or comparison, when they start with one. */
  public static String[] arguments(String[] args) {
    return subcommand(args).isEmpty() ? args : Arrays.copyOfRange(args, 1, args.length);
  }

  private static String subcommand(String[] args) {
    return args.length > 0 && List.of("report", "compare").contains(args[0]) ? args[0] : "";
  }

  /**
   * {@code commandLine} writing to {@code out} and {@code err}, with the one-line errors both entry
   * points give: {@code command} is how the user ran it, for the hint to its --help.
   */
  static CommandLine wired(
      CommandLine commandLine, PrintStream out, PrintStream err, String command) {
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setExecutionExceptionHandler(errorHandler(err));
    commandLine.setParameterExceptionHandler(parameterHandler(err, command));
    return commandLine;
  }

  private static CommandLine.IExecutionExceptionHandler errorHandler(PrintStream err) {
    return (exception, line, parseResult) -> {
      if (exception instanceof UnreachableBrokerException) {
        err.println("error: " + exception.getMessage());
        return UnreachableBrokerException.EXIT_STATUS;
      }
      if (exception instanceof BadInputException) {
        err.println("error: " + exception.getMessage());
        return 2;
      }
      err.println("error: " + exception);
      return 1;
    };
  }

  private static CommandLine.IParameterExceptionHandler parameterHandler(
      PrintStream err, String command) {
    return (exception, arguments) -> {
      // An unknown option is the likelier mistake than the missing arguments it also causes.
      var unmatched = exception.getCommandLine().getParseResult().unmatched();
      err.println(
          "error: "
              + (unmatched.isEmpty()
                  ? exception.getMessage()
                  : "unknown option or argument: " + String.join(" ", unmatched)));
      err.println("Try '" + command + " --help' for the options and examples.");
      return 2;
    };
  }
}
