package io.plumb.cli;

import io.plumb.input.BadInputException;
import picocli.CommandLine;

/** Entry point of {@code bin/benchmark}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String[] args) {
    CommandLine commandLine = new CommandLine(new BenchmarkCommand(System.out));
    commandLine.setExecutionExceptionHandler(
        (exception, line, parseResult) -> {
          if (exception instanceof BadInputException) {
            System.err.println("error: " + exception.getMessage());
            return 2;
          }
          System.err.println("error: " + exception);
          return 1;
        });
    commandLine.setParameterExceptionHandler(
        (exception, arguments) -> {
          System.err.println("error: " + exception.getMessage());
          System.err.println("Try 'bin/benchmark --help' for the options and examples.");
          return 2;
        });
    return commandLine.execute(args);
  }
}
