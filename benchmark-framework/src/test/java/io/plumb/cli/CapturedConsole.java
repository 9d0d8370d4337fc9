package io.plumb.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code bin/benchmark} run in-process with what it prints kept across runs, for a test that runs
 * several commands and reads their words afterwards. Unlike {@link CommandLineRun}, which keeps one
 * run's output, the buffers grow until a test clears them.
 */
public final class CapturedConsole {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** Runs {@code bin/benchmark} with {@code args}; returns its exit status. */
  public int run(String... args) {
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** Everything printed on standard output since the last {@link #clearOut}. */
  public String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Everything printed on standard error since the last {@link #clearErr}. */
  public String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  public void clearOut() {
    out.reset();
  }

  public void clearErr() {
    err.reset();
  }
}
