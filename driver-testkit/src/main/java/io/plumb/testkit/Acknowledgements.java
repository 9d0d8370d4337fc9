package io.plumb.testkit;

import io.plumb.driver.SendListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The completions of sends whose tokens are 0 to {@code sends - 1}, for a test that sends through a
 * driver's producer directly: each failure is noted with its token, the partition each completion
 * names is kept, and {@link #await} says what went wrong.
 */
public final class Acknowledgements implements SendListener {
  private final int sends;
  private final CountDownLatch completed;
  private final AtomicInteger completions = new AtomicInteger();
  private final AtomicIntegerArray partitions;
  private final List<String> failures = new CopyOnWriteArrayList<>();

  /** For {@code sends} sends, each completed once. */
  public Acknowledgements(int sends) {
    this.sends = sends;
    this.completed = new CountDownLatch(sends);
    this.partitions = new AtomicIntegerArray(sends);
  }

  @Override
  public void sendCompleted(long token, Throwable failure) {
    sendCompleted(token, UNKNOWN_PARTITION, failure);
  }

  @Override
  public void sendCompleted(long token, int partition, Throwable failure) {
    if (token >= 0 && token < sends) {
      partitions.set((int) token, partition);
    } else {
      failures.add("a completion for token " + token + ", which no send had");
    }
    if (failure != null) {
      failures.add("send " + token + ": " + failure);
    }
    completions.incrementAndGet();
    completed.countDown();
  }

  /** The partition the completion of send {@code token} named, or {@link #UNKNOWN_PARTITION}. */
  public int partitionOf(int token) {
    return partitions.get(token);
  }

  /**
   * Waits up to {@code timeout} for every send to complete.
   *
   * @return what went wrong: each failed send, how many never completed, and completions beyond one
   *     a send; empty when each was acknowledged once
   */
  public List<String> await(Duration timeout) throws InterruptedException {
    List<String> problems = new ArrayList<>();
    if (!completed.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      problems.add(
          completed.getCount()
              + " of "
              + sends
              + " sends not completed after "
              + timeout.toSeconds()
              + " s");
    } else if (completions.get() != sends) {
      problems.add(completions.get() + " completions for " + sends + " sends");
    }
    problems.addAll(failures);
    return problems;
  }
}
