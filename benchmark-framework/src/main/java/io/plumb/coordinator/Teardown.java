package io.plumb.coordinator;

import java.util.List;

/**
 * Last step on the worker side: close clients (already closed when a final read ran, which reads
 * after them and before this, and after a fault run's drain), delete the run's topics unless asked
 * to keep them, close the worker. Never throws: a failed teardown is an error in the result, not a
 * lost result.
 */
final class Teardown {

  /** After Ctrl-C, topics are deleted only up to this many: more take longer than a user waits. */
  static final int DELETE_WHEN_ABORTED_UP_TO = 1_000;

  private Teardown() {}

  static void run(RunContext run) {
    RunPlan plan = run.findings().plan();
    long start = System.nanoTime();
    boolean delete = plan != null && !run.options().keepTopics();
    if (delete
        && run.abortSignal().abortReason() != null
        && plan.topics().size() > DELETE_WHEN_ABORTED_UP_TO) {
      // Ctrl-C must end the run in seconds, and a broker deletes a few hundred topics a second.
      delete = false;
      String first = plan.topics().get(0).name();
      run.errors()
          .add(
              String.format(
                  "teardown: the run was stopped, so its %,d topics were kept rather than deleted"
                      + " (named like %s)",
                  plan.topics().size(), first));
    }
    if (plan != null) {
      run.step(
          "teardown: closing clients"
              + (delete ? String.format(", deleting %,d topic(s)", plan.topics().size()) : ""));
    }
    try {
      run.worker().closeClients(delete ? plan.topicNames() : List.of());
    } catch (RuntimeException e) {
      run.errors().add("teardown: " + e.getMessage());
    }
    try {
      run.worker().close();
    } catch (RuntimeException e) {
      run.errors().add("teardown: " + e.getMessage());
    }
    run.setupFigures().tornDown((System.nanoTime() - start) / 1e9);
    if (plan != null) {
      run.step(String.format("torn down in %.1f s", (System.nanoTime() - start) / 1e9));
    }
  }
}
