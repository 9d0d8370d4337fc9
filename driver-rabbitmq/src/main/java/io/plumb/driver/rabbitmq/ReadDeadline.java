package io.plumb.driver.rabbitmq;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one deadline a final read shares across all its partitions: each wait gets what is left of
 * {@code timeout}, not a timeout of its own, so a read of many partitions ends when the caller
 * asked it to.
 *
 * @param nanoTime when the read must end, on {@link System#nanoTime()}'s clock
 * @param timeout the whole read's time, for messages
 */
record ReadDeadline(long nanoTime, Duration timeout) {

  /** The deadline {@code timeout} from now. */
  static ReadDeadline after(Duration timeout) {
    return new ReadDeadline(System.nanoTime() + timeout.toNanos(), timeout);
  }

  /**
   * The future's value, waited for until the deadline at most.
   *
   * @throws TimeoutException with {@code whatFailed} as its message when the deadline passes first
   */
  <T> T await(CompletableFuture<T> future, String whatFailed)
      throws InterruptedException, ExecutionException, TimeoutException {
    try {
      return future.get(Math.max(nanoTime - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new TimeoutException(whatFailed);
    }
  }
}
