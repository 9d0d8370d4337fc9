package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamOptions;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.PeriodProgress;
import io.plumb.coordinator.Phase;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.fault.FaultPlan;
import io.plumb.result.RunReport;
import io.plumb.testkit.FaultRunWorkload;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * One run through the whole engine on the local cluster, with a fault plan, whose consumers are
 * paused for the first seconds of the measured phase: the stream then holds acknowledged messages
 * that no consumer has received, as it would behind a slow or offline consumer, so a fault early in
 * the measured phase decides whether the broker still has them. Without the pause a consumer that
 * keeps up would hold almost everything the broker acknowledged, and what the broker itself kept
 * would hardly show.
 *
 * <p>The consumers are the run's own durables, paused through JetStream's consumer pause (NATS 2.11
 * and later) when the measured phase starts. While they are paused, each period before the fault
 * reads how many stored messages they have not been delivered yet.
 */
final class PausedConsumerRun implements RunListener {
  private static final String NATS_URL =
      "nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224";

  private final JetStreamManagement jsm;
  private final RunStreams streams;
  private final Duration pause;
  private final double readUntilSeconds;
  private volatile int paused;
  private volatile long mostUndelivered;

  private PausedConsumerRun(JetStreamManagement jsm, Duration pause, Duration faultAt)
      throws Exception {
    this.jsm = jsm;
    this.streams = new RunStreams(jsm);
    this.pause = pause;
    // The last periods before the fault: reading later could wait on nodes being killed.
    this.readUntilSeconds = faultAt.toMillis() / 1000.0 - 0.5;
  }

  /**
   * Runs {@code driverFile} at {@code rate} msg/s of 1 KB (one topic of one partition, one
   * producer, one consumer), {@code warmup} then {@code measured}, under {@code plan}, with the
   * consumer paused for {@code pause} from the start of the measured phase; {@code faultAt} is the
   * plan's first fault, before which the undelivered messages are read.
   */
  static PausedConsumerRun.Outcome run(
      Path driverFile,
      Path plan,
      double rate,
      Duration warmup,
      Duration measured,
      Duration pause,
      Duration faultAt,
      Path scratch)
      throws Exception {
    Path workload =
        new FaultRunWorkload(
                "power-loss", rate, warmup.toSeconds(), measured.toSeconds(), List.of())
            .writeTo(scratch.resolve("power-loss-workload.yaml"));
    Options options =
        Options.builder()
            .servers(NATS_URL.split(","))
            .connectionTimeout(Duration.ofSeconds(2))
            .build();
    try (Connection admin = Nats.connect(options)) {
      JetStreamManagement jsm =
          admin.jetStreamManagement(
              JetStreamOptions.builder().requestTimeout(Duration.ofSeconds(1)).build());
      PausedConsumerRun listener = new PausedConsumerRun(jsm, pause, faultAt);
      RunOptions runOptions =
          RunOptions.defaults()
              .withFaultPlan(FaultPlan.read(plan))
              .withPeriod(Duration.ofSeconds(1));
      RunReport report =
          new BenchmarkRun(
                  WorkloadReader.read(workload),
                  driverFile,
                  new LocalWorker(),
                  runOptions,
                  listener)
              .execute();
      return new Outcome(report, listener.paused, listener.mostUndelivered);
    }
  }

  /**
   * @param report the run's result
   * @param pausedConsumers the durables paused when the measured phase started
   * @param mostUndelivered the most stored messages the paused consumers had not been delivered,
   *     read in the periods before the fault
   */
  record Outcome(RunReport report, int pausedConsumers, long mostUndelivered) {}

  @Override
  public void phaseStarted(Phase phase) {
    if (phase != Phase.MEASURE) {
      return;
    }
    ZonedDateTime until = ZonedDateTime.now().plus(pause);
    int count = 0;
    try {
      for (RunStreams.Durable d : streams.durables()) {
        if (jsm.pauseConsumer(d.stream(), d.consumer(), until).isPaused()) {
          count++;
        }
      }
    } catch (Exception e) {
      // The outcome's count of paused consumers tells the test.
    }
    paused = count;
  }

  @Override
  public void period(PeriodProgress progress) {
    if (progress.phase() != Phase.MEASURE || progress.elapsedSeconds() > readUntilSeconds) {
      return;
    }
    try {
      long undelivered = 0;
      for (RunStreams.Durable d : streams.durables()) {
        undelivered += jsm.getConsumerInfo(d.stream(), d.consumer()).getNumPending();
      }
      mostUndelivered = Math.max(mostUndelivered, undelivered);
    } catch (Exception e) {
      // A reading missed (the cluster busy): the others still count.
    }
  }
}
