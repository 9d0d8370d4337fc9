package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.resources.ResourceSource;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.LastCount;
import io.plumb.worker.Worker;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker lost at the run's final count, after the drain ended: without its sequence sets, what
 * its consumers received would look missing and count as lost. The run as {@link
 * CrossWorkerDuplicatesTest}'s (one subscription's consumers on two in-process workers, a broker
 * that drops some messages), the second worker's server closed just before the final count.
 */
class WorkerLostAtFinalCountTest {
  private static final String TOKEN = "lost-at-final-count-token-0123456789";

  private static final String WORKLOAD =
      WorkloadYaml.oneTopic()
          .named("lost-at-final-count")
          .messageSize(64)
          .subscriptions(1, 2)
          .rate(1000)
          .seconds(2)
          .text();

  /** As CrossWorkerDuplicatesTest's: the dropped messages end the drain as stalled. */
  private static final RunOptions OPTIONS =
      new RunOptions(
          Optional.of(Duration.ofSeconds(1)),
          false,
          Duration.ofSeconds(60),
          Duration.ofSeconds(7),
          Map.of());

  @TempDir Path dir;

  @Test
  void theRunIsIncompleteNamingTheWorkerAndItsDeliveriesAreNotCountedAsLost() throws Exception {
    try (WorkerServer first = start();
        WorkerServer second = start()) {
      DistributedWorkers workers =
          DistributedWorkers.connect(
              List.of(
                  LoopbackWorkerServers.client(first, Optional.of(TOKEN)),
                  LoopbackWorkerServers.client(second, Optional.of(TOKEN))),
              WorkerRoles.BOTH);
      String victim = LoopbackWorkerServers.client(second, Optional.of(TOKEN)).name();
      RedeliveringDriver.resetCounts();
      Path workload = Files.writeString(dir.resolve("workload.yaml"), WORKLOAD);
      Path driver =
          Files.writeString(
              dir.resolve("redelivering.yaml"),
              "name: Redelivering\ndriverClass: io.plumb.remote.RedeliveringDriver\n");
      BenchmarkRun run =
          new BenchmarkRun(
              WorkloadReader.read(workload),
              driver,
              new LostAtFinalCount(workers, second),
              OPTIONS,
              RunListener.SILENT);
      workers.onWorkerLost(run::abort);
      RunReport report = run.execute();

      assertFalse(report.complete(), "a count without one worker's sets is not complete");
      String reason = report.incompleteReason();
      assertTrue(reason.contains("the sequence sets of worker " + victim), reason);
      assertTrue(reason.contains("loss is not judged"), reason);
      assertTrue(
          report.errors().stream().anyMatch(line -> line.contains(victim)),
          report.errors().toString());
      Counters counters = report.counters();
      long dropped = RedeliveringDriver.DROPPED.get();
      assertTrue(dropped > 0, counters.toString());
      // Before, every message the lost worker's consumer received counted as lost: 830 of 104.
      assertTrue(counters.lost() <= dropped, dropped + " dropped, " + counters);
      assertEquals(0, counters.lost(), "loss is not judged without the sets: " + counters);
      assertEquals(0, counters.inFlight(), counters.toString());
      // What was measured is still written.
      assertTrue(counters.sent() >= 1_000, counters.toString());
      assertTrue(counters.received() > 0, counters.toString());
    }
  }

  private static WorkerServer start() throws Exception {
    WorkerServer server = LoopbackWorkerServers.create(Optional.of(TOKEN), Duration.ofSeconds(30));
    server.start();
    return server;
  }

  /** The ensemble, with {@code victim}'s server closed as the final count begins. */
  private static final class LostAtFinalCount implements Worker {
    private final DistributedWorkers workers;
    private final WorkerServer victim;

    LostAtFinalCount(DistributedWorkers workers, WorkerServer victim) {
      this.workers = workers;
      this.victim = victim;
    }

    @Override
    public LastCount lastCount() {
      victim.close();
      return workers.lastCount();
    }

    @Override
    public String name() {
      return workers.name();
    }

    @Override
    public DriverInfo initializeDriver(DriverSetup setup, int runId) {
      return workers.initializeDriver(setup, runId);
    }

    @Override
    public Map<String, ResourceSource> remoteResources() {
      return workers.remoteResources();
    }

    @Override
    public Map<String, String> createTopics(List<TopicSpec> topics) {
      return workers.createTopics(topics);
    }

    @Override
    public Map<String, String> createConsumers(List<ConsumerSpec> consumers) {
      return workers.createConsumers(consumers);
    }

    @Override
    public void createProducers(List<ProducerSpec> producers, MessageSpec messages) {
      workers.createProducers(producers, messages);
    }

    @Override
    public void sendProbes() {
      workers.sendProbes();
    }

    @Override
    public Map<String, Long> probesReceived() {
      return workers.probesReceived();
    }

    @Override
    public void startLoad(LoadSpec load) {
      workers.startLoad(load);
    }

    @Override
    public void adjustRate(double ratePerProducer) {
      workers.adjustRate(ratePerProducer);
    }

    @Override
    public void pauseConsumers() {
      workers.pauseConsumers();
    }

    @Override
    public void resumeConsumers() {
      workers.resumeConsumers();
    }

    @Override
    public void startMeasuring() {
      workers.startMeasuring();
    }

    @Override
    public PeriodStats takePeriod() {
      return workers.takePeriod();
    }

    @Override
    public long scheduleLag() {
      return workers.scheduleLag();
    }

    @Override
    public void stopLoad() {
      workers.stopLoad();
    }

    @Override
    public Totals totals() {
      return workers.totals();
    }

    @Override
    public List<String> firstErrors() {
      return workers.firstErrors();
    }

    @Override
    public void closeClients(List<String> topicsToDelete) {
      workers.closeClients(topicsToDelete);
    }

    @Override
    public void close() {
      workers.close();
    }
  }
}
