package io.plumb.coordinator;

import io.plumb.message.HeaderPlacement;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.workload.Payloads;
import io.plumb.workload.Workload;
import java.util.Map;

/** Second step: consumers first, so they are subscribed before the first message is sent. */
final class CreateClients {

  private CreateClients() {}

  static void run(RunContext run) {
    RunPlan plan = run.findings().plan();
    Workload workload = run.workload();
    if (!plan.consumers().isEmpty()) {
      run.step("creating " + plan.consumers().size() + " consumer(s)");
      Map<String, String> facts = run.worker().createConsumers(plan.consumers());
      if (!facts.isEmpty()) {
        run.findings().brokerFacts(facts);
      }
    }
    run.step("creating " + plan.producers().size() + " producer(s)");
    run.worker()
        .createProducers(
            plan.producers(),
            new MessageSpec(
                workload.messageSize(),
                workload.keyDistributor(),
                Payloads.forWorkload(workload, run.runId()),
                run.findings().headerPlacement() == HeaderPlacement.METADATA));
  }
}
