package io.plumb.driver.rabbitmq;

import java.util.concurrent.ThreadFactory;

/**
 * Threads for the drivers' own executors (administration, timers): daemons, so a driver a run
 * leaves unclosed cannot keep the worker's JVM alive, and named, so a thread dump tells whose they
 * are.
 */
final class DaemonThreads {

  private DaemonThreads() {}

  /** A factory whose threads are daemons called {@code name}. */
  static ThreadFactory named(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
