package io.plumb.driver;

import java.util.concurrent.ThreadFactory;

/**
 * Threads a driver starts for its own work (a poll loop, a sender, a watcher, an executor's
 * administration or timers), and those the framework starts alike.
 *
 * <p>They are daemons, so a driver that a run leaves unclosed (a setup that failed half way, a
 * teardown cut short) cannot keep the worker's JVM alive once the run is over; and they are named,
 * so a thread dump says whose each one is: name one after the driver and its job, e.g. {@code
 * "plumb-redis-sender-" + topic}. Being a daemon does not stop a thread: a driver's {@code close}
 * still stops the threads it started.
 *
 * <p>A thread is created here as {@code new Thread(body, name)} would create it, in the caller's
 * thread group and with its priority, then made a daemon.
 */
public final class DaemonThreads {

  private DaemonThreads() {}

  /**
   * A factory whose threads are daemons called {@code name}: for an executor ({@code
   * Executors.newSingleThreadExecutor(DaemonThreads.named("plumb-nats-consumer-pause"))}), or for a
   * thread to start later ({@code named(name).newThread(body)}).
   */
  public static ThreadFactory named(String name) {
    return body -> {
      Thread thread = new Thread(body, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Starts {@code body} on a new daemon thread called {@code name}, and returns that thread. */
  public static Thread start(String name, Runnable body) {
    Thread thread = named(name).newThread(body);
    thread.start();
    return thread;
  }
}
