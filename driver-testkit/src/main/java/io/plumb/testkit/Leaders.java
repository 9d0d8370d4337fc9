package io.plumb.testkit;

import io.plumb.driver.LeaderLocator;
import java.time.Duration;
import java.util.Optional;

/** Waiting for a driver to name a new leader, as a fault plan would ask it. */
public final class Leaders {
  private static final long POLL_MILLIS = 200;

  private Leaders() {}

  /**
   * The leader of {@code topic} that {@code driver} names once it names one other than {@code old}
   * (any, when {@code old} is null), asked every 200 ms; a question may fail while leadership
   * moves.
   *
   * @throws AssertionError if none other is named within {@code timeout}, with the last answer
   */
  public static String awaitOther(LeaderLocator driver, String topic, String old, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "nothing";
    while (System.nanoTime() - deadline < 0) {
      try {
        Optional<String> leader = driver.locate("leader", topic);
        if (leader.isPresent() && !leader.get().equals(old)) {
          return leader.get();
        }
        last = leader.orElse("no leader");
      } catch (Exception e) {
        last = e.toString();
      }
      Thread.sleep(POLL_MILLIS);
    }
    throw new AssertionError(
        (old == null
                ? "no leader of " + topic + " named"
                : "the leader of " + topic + " is still " + old)
            + " after "
            + timeout.toSeconds()
            + " s: the last answer was "
            + last);
  }
}
