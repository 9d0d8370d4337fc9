package io.plumb.cli;

import java.io.PrintStream;

/**
 * Errors that escape every handler, above all running out of heap, end in one line rather than a
 * stack trace: on the main thread with a non-zero exit status, on any other thread as a line on
 * standard error (the run notices what that thread no longer does).
 */
final class OneLineErrors {
  private OneLineErrors() {}

  /** A command line's entry point: its exit status for the arguments, on the process's streams. */
  interface Program {
    int run(String[] args, PrintStream out, PrintStream err);
  }

  /** What each entry point's main does: runs {@code program} and exits with its status. */
  static void exitWith(String[] args, Program program) {
    install(System.err);
    System.exit(run(() -> program.run(args, System.out, System.err), System.err));
  }

  /** Reports errors of threads that die of them, from now on. */
  private static void install(PrintStream err) {
    Thread.setDefaultUncaughtExceptionHandler(
        (thread, error) ->
            err.println("error: thread " + thread.getName() + ": " + describe(error)));
  }

  /** Runs {@code main}; an error escaping it is printed as one line and exits with status 1. */
  private static int run(java.util.function.IntSupplier main, PrintStream err) {
    try {
      return main.getAsInt();
    } catch (OutOfMemoryError | StackOverflowError e) {
      err.println("error: " + describe(e));
      return 1;
    }
  }

  static String describe(Throwable error) {
    if (error instanceof OutOfMemoryError) {
      return String.format(
          "out of memory (%s) with a heap of %d MB; give a larger one with PLUMB_JAVA_OPTS=-Xmx<size>",
          error.getMessage(), Runtime.getRuntime().maxMemory() >> 20);
    }
    return String.valueOf(error);
  }
}
