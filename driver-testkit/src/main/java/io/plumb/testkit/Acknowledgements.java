package io.plumb.testkit;

import io.plumb.driver.SendListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The completions of a known number of sends, for a test that sends through a driver's producer
 * directly: each failure is noted with its token, and {@link #await} says what went wrong.
 */
public final class Acknowledgements implements SendListener {
  private final int sends;
  private final CountDownLatch completed;
  private final List<String> failures = new CopyOnWriteArrayList<>();

  /** For {@code sends} sends, each completed once. */
  public Acknowledgements(int sends) {
    this.sends = sends;
    this.completed = new CountDownLatch(sends);
  }

  @Override
  public void sendCompleted(long token, Throwable failure) {
    if (failure != null) {
      failures.add("send " + token + ": " + failure);
    }
    completed.countDown();
  }

  /**
   * Waits up to {@code timeout} for every send to complete.
   *
   * @return what went wrong: each failed send, and how many never completed; empty when all were
   *     acknowledged
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
    }
    problems.addAll(failures);
    return problems;
  }
}
