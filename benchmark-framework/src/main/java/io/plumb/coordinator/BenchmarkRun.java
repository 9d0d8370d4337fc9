package io.plumb.coordinator;

import io.plumb.fault.FaultFigures;
import io.plumb.input.BadInputException;
import io.plumb.resources.JvmPauses;
import io.plumb.result.Counters;
import io.plumb.result.FinalReadFigures;
import io.plumb.result.RunReport;
import io.plumb.worker.Worker;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One workload against one driver: set up, check every subscription receives, warm up, measure,
 * drain, tear down — and always produce a report, marked incomplete when something failed or the
 * user interrupted, so nothing measured is lost.
 *
 * <p>{@link #execute} reads as the run's steps in order; each step is a class of its own, sharing
 * the run's {@link RunContext}. Whatever acts on the run's clock (faults, resource sampling) hears
 * the phase boundaries through {@link RunListener#phaseStarted} rather than living in here.
 */
public final class BenchmarkRun {
  /** The longest a run's load waits for this JVM's GC pause recording to start. */
  private static final Duration JFR_START_WAIT = Duration.ofSeconds(10);

  /** How long after the start call the first message is due, so every producer starts on time. */
  private static final Duration FIRST_MESSAGE_DELAY = Duration.ofMillis(20);

  /**
   * Heap held back for the run's last steps should it run out: when the heap is full, even the line
   * explaining it cannot be allocated, and closing the clients (which frees the heap) takes a
   * little heap too. Released first thing on {@link OutOfMemoryError}.
   */
  private static final int HEADROOM_BYTES = 2 << 20;

  private final RunContext run;
  private final ResourceSteps resources;
  private final Optional<FaultSteps> faults;
  private volatile BacklogOutcome backlogOutcome;
  private byte[] headroom = new byte[HEADROOM_BYTES];

  public BenchmarkRun(
      Workload workload, Path driverFile, Worker worker, RunOptions options, RunListener listener) {
    this.resources = new ResourceSteps(worker, listener);
    this.run = RunContext.begin(workload, driverFile, worker, options, resources);
    this.faults = FaultSteps.of(run);
  }

  /** Stops the run at the next opportunity; the report is marked incomplete with {@code reason}. */
  public void abort(String reason) {
    run.abortSignal().abort(reason);
  }

  /**
   * Scheduled messages the producers had not sent at the end of the last measured period; -1 before
   * one. What tells a generator that fell behind from a broker that did.
   */
  public long scheduleLagAtEnd() {
    return resources.lagAtEnd();
  }

  /** How the backlog build and drain went; empty for workloads without a backlog. */
  public Optional<BacklogOutcome> backlogOutcome() {
    return Optional.ofNullable(backlogOutcome);
  }

  /**
   * Runs to the end. Bad input found before anything was measured is thrown as {@link
   * BadInputException}; every other failure ends in an incomplete report.
   */
  public RunReport execute() {
    Workload workload = run.workload();
    Worker worker = run.worker();
    String failure = null;
    boolean loadStarted = false;
    OutOfMemoryError outOfMemory = null;
    try {
      checkSupported();
      run.abortSignal().settingUp();
      try {
        PrepareTopics.run(run);
        faults.ifPresent(FaultSteps::check);
        CreateClients.run(run);
        SubscriptionCheck.run(run);
      } finally {
        run.abortSignal().setUpEnded();
      }
      run.step(run.setupFigures().setUpDone(run.findings().plan()));
      if (workload.consumerBacklogSizeGB() > 0) {
        BacklogPhase.checkConsumersPause(run);
      }
      faults.ifPresent(FaultSteps::beforeLoad);
      // JFR's start (the GC pause source, once per JVM) takes seconds of CPU: over before the load.
      JvmPauses.awaitStarted(JFR_START_WAIT);
      startLoad();
      loadStarted = true;
      PeriodLoop periods = new PeriodLoop(run);
      announce(Phase.WARM_UP);
      periods.timed(Phase.WARM_UP, workload.warmupDuration());
      worker.startMeasuring();
      announce(Phase.MEASURE, periods.nextPhaseStart());
      if (workload.consumerBacklogSizeGB() > 0) {
        BacklogPhase.run(run, periods, outcome -> backlogOutcome = outcome);
      }
      if (!workload.consumerOnly()) {
        periods.timed(Phase.MEASURE, workload.testDuration());
      }
    } catch (BadInputException e) {
      if (!loadStarted) {
        Teardown.run(run);
        throw e;
      }
      failure = e.getMessage();
    } catch (RuntimeException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      // After an abort, what failed (an interrupted creation, say) is the abort's consequence.
      String reason = run.abortSignal().abortReason();
      failure = reason == null || reason.equals(message) ? message : reason + " (" + message + ")";
    } catch (OutOfMemoryError e) {
      // Nothing here may allocate before the headroom is back; the pause recording goes next, as
      // its thread parses JFR's buffers every second; the explanation waits for the teardown.
      headroom = null;
      JvmPauses.stop("this JVM ran out of heap during a run; pauses no longer recorded");
      outOfMemory = e;
    }
    if (failure == null) {
      failure = run.abortSignal().abortReason();
    }
    DeliveryBalance.DrainOutcome drained = DeliveryBalance.DrainOutcome.NOT_DRAINED;
    if (outOfMemory != null) {
      // The clients go first: counting and the report need memory of their own.
      if (loadStarted) {
        worker.stopLoad();
      }
      Teardown.run(run);
      failure = OutOfMemory.explain(run, outOfMemory);
    } else if (loadStarted) {
      worker.stopLoad();
      faults.ifPresent(FaultSteps::loadStopped);
      if (failure == null) {
        announce(Phase.DRAIN);
        try {
          drained = Drain.run(run);
          run.setupFigures().loadDone();
        } catch (RuntimeException e) {
          failure = "drain: " + (e.getMessage() == null ? e.toString() : e.getMessage());
        }
      }
      faults.ifPresent(FaultSteps::closeClients);
    }
    FinalReadFigures finalRead = FinalReadFigures.notRun("no load was sent");
    if (outOfMemory != null) {
      finalRead = FinalReadFigures.notRun("the worker ran out of memory");
    } else if (loadStarted) {
      try {
        FinalReadStep.Result read = FinalReadStep.run(run, drained, faults.isPresent());
        finalRead = read.figures();
        drained = read.outcome();
      } catch (RuntimeException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        run.errors().add("final read: " + message);
        finalRead = FinalReadFigures.notRun("failed: " + message);
      }
    }
    Counters counters;
    try {
      counters = DeliveryCount.of(run, drained, loadStarted);
    } catch (RuntimeException e) {
      // What the periods counted is still worth writing; loss cannot be judged without the sets,
      // and a 0 there must not read as nothing lost.
      String message =
          "counting messages: "
              + (e.getMessage() == null ? e : e.getMessage())
              + "; loss is not judged without the sequence sets (lost and inFlight read 0)";
      failure = failure == null ? message : failure;
      run.errors().add(message);
      counters = DeliveryCount.of(run, drained, false);
    }
    run.errors().addAll(worker.firstErrors());
    Counters counted = counters;
    FaultFigures faultFigures = faults.map(f -> f.figures(counted)).orElse(FaultFigures.NONE);
    if (outOfMemory == null) {
      Teardown.run(run);
    }
    RunReport report =
        RunVerdict.report(run, counters, failure, faultFigures, finalRead, resources);
    run.listener().finished(report);
    return report;
  }

  private void checkSupported() {
    OptionalLong heap = run.worker().maxHeapBytes();
    MemoryEstimate needed = MemoryEstimate.of(run.workload());
    if (heap.isPresent() && !needed.fits(heap.getAsLong())) {
      throw new BadInputException(
          String.format(
              "%s: too large for this worker's heap of %s: %s",
              run.workload().file(),
              MemoryEstimate.format(heap.getAsLong()),
              needed.advice(heap.getAsLong())));
    }
    if (run.workload().producerRate() == 0) {
      // The command line turns producerRate 0 into a peak search (io.plumb.search), whose probes
      // and final measurement each run at a fixed rate.
      throw new BadInputException(
          run.workload().file()
              + ": field 'producerRate': 0 asks for a peak search, which runs a series of fixed-rate runs; give a rate in messages per second to run one");
    }
  }

  private void startLoad() {
    Workload workload = run.workload();
    RunPlan plan = run.findings().plan();
    run.worker().takePeriod(); // drops what the probes recorded
    run.step(
        String.format(
            "load: %,.0f msg/s over %d producer(s), %d bytes each",
            workload.producerRate(), plan.producers().size(), workload.messageSize()));
    run.worker()
        .startLoad(
            new LoadSpec(
                plan.ratePerProducer(), FIRST_MESSAGE_DELAY.toNanos(), run.options().pacing()));
  }

  private void announce(Phase phase) {
    announce(phase, System.nanoTime());
  }

  /**
   * @param startedAt where the phase's first period began ({@code System.nanoTime()})
   */
  private void announce(Phase phase, long startedAt) {
    faults.ifPresent(f -> f.phaseStarted(phase, startedAt));
    run.listener().phaseStarted(phase);
  }
}
