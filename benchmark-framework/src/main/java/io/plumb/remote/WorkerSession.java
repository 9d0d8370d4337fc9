package io.plumb.remote;

import io.plumb.driver.DaemonThreads;
import io.plumb.input.BadInputException;
import io.plumb.load.WorkerClock;
import io.plumb.worker.WorkerException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Opening a session with remote workers: reach each one and measure its clock against the
 * coordinator's, so end-to-end latency across hosts can be corrected.
 */
final class WorkerSession {
  private static final WorkerClock COORDINATOR_CLOCK = new WorkerClock();

  private WorkerSession() {}

  /** Reaches every worker and measures its clock; every unreachable worker is named at once. */
  static List<RemoteMember> open(List<HttpWorker> workers) {
    List<CompletableFuture<Long>> reached = new ArrayList<>();
    ExecutorService probes =
        Executors.newFixedThreadPool(workers.size(), DaemonThreads.named("plumb-connect"));
    try {
      // All at once, so every unreachable worker is named within one connect timeout.
      for (HttpWorker worker : workers) {
        reached.add(CompletableFuture.supplyAsync(worker::clock, probes));
      }
      List<RemoteMember> members = new ArrayList<>();
      List<ClockProbe> clockProbes = new ArrayList<>();
      boolean opened = false;
      try {
        List<String> unreachable = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
          ClockProbe probe = workers.get(i).clockProbe();
          clockProbes.add(probe);
          try {
            reached.get(i).join();
            // A first estimate: the offsets used are measured again, warm, just before use.
            members.add(
                new RemoteMember(
                    workers.get(i), probe, measureClock(probe, ClockOffset.CHECK_ROUNDS)));
          } catch (CompletionException | WorkerException e) {
            Throwable cause = e instanceof CompletionException ? e.getCause() : e;
            if (cause instanceof BadInputException bad) {
              throw bad;
            }
            unreachable.add(HttpWorker.describe(cause));
          }
        }
        if (!unreachable.isEmpty()) {
          throw new BadInputException(
              "--workers: "
                  + String.join("; ", unreachable)
                  + " (is bin/benchmark-worker running there, and the URL's scheme and port"
                  + " right?)");
        }
        opened = true;
        return List.copyOf(members);
      } finally {
        if (!opened) {
          clockProbes.forEach(ClockProbe::close);
        }
      }
    } finally {
      probes.shutdownNow();
    }
  }

  /**
   * One worker at a time, after a few unmeasured calls: parallel round trips and a cold connection
   * only widen the round trips, and with them the uncertainty.
   */
  static ClockOffset measureClock(ClockProbe probe, int rounds) {
    ClockOffset.measure(COORDINATOR_CLOCK::now, probe::clock, 3);
    return ClockOffset.measure(COORDINATOR_CLOCK::now, probe::clock, rounds);
  }
}
