package io.plumb.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ctrl-C (SIGINT) or SIGTERM stops the current run, which then writes what it measured, marked
 * incomplete: the JVM waits up to 20 s for the command to finish writing before it exits.
 */
final class Interrupts {
  private Interrupts() {}

  /**
   * @param interrupted set once the signal came, so no further run starts
   * @param current aborts the run in progress, if any
   * @param finished counted down once the command has written everything
   */
  static void install(AtomicBoolean interrupted, CurrentRun current, CountDownLatch finished) {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  interrupted.set(true);
                  current.abort("interrupted (SIGINT/SIGTERM) before the end of the run");
                  try {
                    finished.await(20, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "plumb-interrupt"));
  }
}
