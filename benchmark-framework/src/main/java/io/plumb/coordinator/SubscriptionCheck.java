package io.plumb.coordinator;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * Third step: every producer sends probes until every subscription has received one, so a consumer
 * that cannot read what producers write fails the run before load rather than counting as loss.
 */
final class SubscriptionCheck {
  private static final long PROBE_INTERVAL_NANOS = 500_000_000L;

  private SubscriptionCheck() {}

  static void run(RunContext run) {
    RunPlan plan = run.findings().plan();
    if (plan.topicOfSubscription().isEmpty()) {
      return;
    }
    Duration timeout = run.options().readinessTimeout();
    run.step("checking that every subscription receives (up to " + timeout.toSeconds() + " s)");
    long deadline = System.nanoTime() + timeout.toNanos();
    long nextProbe = 0;
    // A round of probes and a look at every subscription take about a microsecond per client:
    // with millions of them, rounds and looks come less often, so they do not fill the wait.
    int clients = plan.producers().size() + plan.topicOfSubscription().size();
    long probeInterval = Math.max(PROBE_INTERVAL_NANOS, clients * 1_000L);
    Duration pollInterval = Duration.ofMillis(Math.max(50, clients / 5_000));
    Collection<String> silent = plan.topicOfSubscription().keySet();
    while (true) {
      if (System.nanoTime() >= nextProbe) {
        run.worker().sendProbes();
        nextProbe = System.nanoTime() + probeInterval;
      }
      Map<String, Long> probes = run.worker().probesReceived();
      silent = silent.stream().filter(key -> probes.getOrDefault(key, 0L) == 0).toList();
      if (silent.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new RunException(
            silent.size()
                + " subscription(s) received nothing within "
                + timeout.toSeconds()
                + " s (first: "
                + silent.iterator().next()
                + "); check that consumers can read what producers write (offsets, bindings, subjects)");
      }
      if (run.abortSignal().waitOrAbort(pollInterval)) {
        throw new RunException(run.abortSignal().abortReason());
      }
    }
  }
}
