package io.plumb.cli;

import java.io.PrintStream;
import picocli.CommandLine;

/** Entry point of {@code bin/benchmark-worker}. */
public final class WorkerMain {
  private WorkerMain() {}

  public static void main(String[] args) {
    OneLineErrors.exitWith(args, WorkerMain::run);
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    return Main.wired(commandLine(out), out, err, "bin/benchmark-worker").execute(args);
  }

  /** The worker's command line, as {@link #run} parses it. */
  public static CommandLine commandLine(PrintStream out) {
    return HelpLayout.apply(new CommandLine(new WorkerCommand(out)));
  }
}
