package io.plumb.coordinator;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Third step: every producer sends probes until every subscription has received one, so a consumer
 * that cannot read what producers write fails the run before load rather than counting as loss.
 */
final class SubscriptionCheck {
  private static final long PROBE_INTERVAL_NANOS = 500_000_000L;

  private SubscriptionCheck() {}

  static void run(RunContext run) {
    RunPlan plan = run.plan();
    if (plan.topicOfSubscription().isEmpty()) {
      return;
    }
    Duration timeout = run.options().readinessTimeout();
    run.step("checking that every subscription receives (up to " + timeout.toSeconds() + " s)");
    long deadline = System.nanoTime() + timeout.toNanos();
    long nextProbe = 0;
    while (true) {
      if (System.nanoTime() >= nextProbe) {
        run.worker().sendProbes();
        nextProbe = System.nanoTime() + PROBE_INTERVAL_NANOS;
      }
      Map<String, Long> probes = run.worker().probesReceived();
      List<String> silent =
          plan.topicOfSubscription().keySet().stream()
              .filter(key -> probes.getOrDefault(key, 0L) == 0)
              .toList();
      if (silent.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new RunException(
            silent.size()
                + " subscription(s) received nothing within "
                + timeout.toSeconds()
                + " s (first: "
                + silent.get(0)
                + "); check that consumers can read what producers write (offsets, bindings, subjects)");
      }
      if (run.waitOrAbort(Duration.ofMillis(50))) {
        throw new RunException(run.abortReason());
      }
    }
  }
}
