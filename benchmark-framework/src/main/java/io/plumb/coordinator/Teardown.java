package io.plumb.coordinator;

import java.util.List;

/**
 * Last step on the worker side: close clients, delete the run's topics unless asked to keep them,
 * close the worker. Never throws: a failed teardown is an error in the result, not a lost result.
 */
final class Teardown {

  private Teardown() {}

  static void run(RunContext run) {
    RunPlan plan = run.plan();
    long start = System.nanoTime();
    if (plan != null) {
      run.step(
          "teardown: closing clients"
              + (run.options().keepTopics()
                  ? ""
                  : String.format(", deleting %,d topic(s)", plan.topics().size())));
    }
    try {
      run.worker()
          .closeClients(plan == null || run.options().keepTopics() ? List.of() : plan.topicNames());
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
