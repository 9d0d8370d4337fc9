package io.plumb.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The driver calls that set a run up (topics, consumers, producers): each waited for within {@link
 * #TIMEOUT}, stopped once the coordinator interrupts, and whatever a failed or interrupted set-up
 * created closed again.
 */
final class SetupCalls {
  static final Duration TIMEOUT = Duration.ofSeconds(120);

  private SetupCalls() {}

  /**
   * Creates one client per spec and returns them in order, once all are created.
   *
   * @param what the clients, plural ("consumers"), for messages
   */
  static <S, T extends AutoCloseable> List<T> createEach(
      String what, List<S> specs, Function<S, CompletableFuture<T>> create) {
    List<CompletableFuture<T>> futures = new ArrayList<>();
    for (S spec : specs) {
      checkNotInterrupted("creating " + what, futures.size(), specs.size(), futures);
      futures.add(create.apply(spec));
    }
    return awaitAll("creating " + specs.size() + " " + what, futures, SetupCalls::closeAbandoned);
  }

  /**
   * Stops a creation loop once the coordinator has interrupted the thread (Ctrl-C during set-up),
   * closing whatever the loop created so far.
   */
  private static <T extends AutoCloseable> void checkNotInterrupted(
      String what, int done, int total, List<CompletableFuture<T>> created) {
    if (Thread.currentThread().isInterrupted()) {
      created.forEach(future -> future.thenAccept(SetupCalls::closeAbandoned));
      checkNotInterrupted(what, done, total);
    }
  }

  static void checkNotInterrupted(String what, int done, int total) {
    if (Thread.currentThread().isInterrupted()) {
      throw new WorkerException(
          String.format("%s was interrupted after %,d of %,d", what, done, total));
    }
  }

  /** Closes a client that a failed or interrupted set-up created but will never use. */
  private static void closeAbandoned(AutoCloseable client) {
    try {
      client.close();
    } catch (Exception e) {
      // Set-up has already failed with its own reason; this client's close adds nothing to it.
    }
  }

  /**
   * Waits for every future and returns their results in order. When one fails, times out or the
   * wait is interrupted, what the others created (now or later) goes to {@code abandon}.
   */
  static <T> List<T> awaitAll(
      String what, List<CompletableFuture<T>> futures, Consumer<T> abandon) {
    List<T> results = new ArrayList<>();
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    for (CompletableFuture<T> future : futures) {
      try {
        results.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
      } catch (TimeoutException e) {
        abandonAll(results, futures, abandon);
        throw new WorkerException(what + " did not finish within " + TIMEOUT.toSeconds() + " s", e);
      } catch (ExecutionException e) {
        abandonAll(results, futures, abandon);
        throw new WorkerException(what + " failed: " + e.getCause(), e.getCause());
      } catch (InterruptedException e) {
        abandonAll(results, futures, abandon);
        Thread.currentThread().interrupt();
        throw new WorkerException(
            String.format("%s was interrupted after %,d", what, results.size()), e);
      }
    }
    return results;
  }

  private static <T> void abandonAll(
      List<T> results, List<CompletableFuture<T>> futures, Consumer<T> abandon) {
    results.forEach(abandon);
    for (int i = results.size(); i < futures.size(); i++) {
      futures.get(i).thenAccept(abandon);
    }
  }
}
