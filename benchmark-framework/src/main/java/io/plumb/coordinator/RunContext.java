package io.plumb.coordinator;

import io.plumb.message.HeaderPlacement;
import io.plumb.worker.Worker;
import io.plumb.workload.Workload;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the steps of one run share: its inputs, its abort signal, what it has measured, and what it
 * has learnt so far (the driver's name, the broker's facts, the plan). A step that fails part-way
 * leaves here whatever it learnt, so teardown and the report still see it.
 */
final class RunContext {
  private static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

  private final Workload workload;
  private final Path driverFile;
  private final Worker worker;
  private final RunOptions options;
  private final RunListener listener;
  private final Instant start = Instant.now();
  private final int runId;
  private final String tag;
  private final Measurement measurement;
  private final SetupFigures setupFigures = new SetupFigures();
  private final List<String> errors = new ArrayList<>();
  private final CountDownLatch aborted = new CountDownLatch(1);
  private volatile String abortReason;

  /** The thread creating topics and clients while it does so; null otherwise. */
  private Thread settingUp;

  private String driverName;
  private String driverClass = "";
  private Map<String, String> brokerFacts = Map.of();
  private HeaderPlacement headerPlacement;
  private RunPlan plan;

  RunContext(
      Workload workload, Path driverFile, Worker worker, RunOptions options, RunListener listener) {
    this.workload = workload;
    this.driverFile = driverFile;
    this.worker = worker;
    this.options = options;
    this.listener = listener;
    SecureRandom random = new SecureRandom();
    this.runId = random.nextInt();
    StringBuilder tag = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      tag.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
    }
    this.tag = tag.toString();
    this.measurement = new Measurement(workload.subscriptionsPerTopic());
    this.driverName = driverFile.getFileName().toString();
  }

  Workload workload() {
    return workload;
  }

  Path driverFile() {
    return driverFile;
  }

  Worker worker() {
    return worker;
  }

  RunOptions options() {
    return options;
  }

  RunListener listener() {
    return listener;
  }

  Instant start() {
    return start;
  }

  /** Seeds the payloads, so two runs never send the same bytes. */
  int runId() {
    return runId;
  }

  /** Part of every topic name, so concurrent or leftover runs never share a topic. */
  String tag() {
    return tag;
  }

  Measurement measurement() {
    return measurement;
  }

  SetupFigures setupFigures() {
    return setupFigures;
  }

  /** Problems met on the way that did not end the run, for the result. */
  List<String> errors() {
    return errors;
  }

  String driverName() {
    return driverName;
  }

  void driverName(String name) {
    driverName = name;
  }

  /** The driver's class, once the worker has loaded it. */
  String driverClass() {
    return driverClass;
  }

  void driverClass(String name) {
    driverClass = name;
  }

  /** The driver's facts, with where the header travels once that is decided. */
  Map<String, String> brokerFacts() {
    if (headerPlacement == null) {
      return brokerFacts;
    }
    Map<String, String> all = new LinkedHashMap<>(brokerFacts);
    all.putAll(HeaderChoice.facts(headerPlacement, workload().messageSize(), brokerFacts));
    return all;
  }

  void brokerFacts(Map<String, String> facts) {
    brokerFacts = facts;
  }

  /** Where the run's header travels; null until the driver's facts are known. */
  HeaderPlacement headerPlacement() {
    return headerPlacement;
  }

  void headerPlacement(HeaderPlacement placement) {
    headerPlacement = placement;
  }

  /** The topics, producers and consumers of this run; null until the driver is initialised. */
  RunPlan plan() {
    return plan;
  }

  void plan(RunPlan value) {
    plan = value;
  }

  void step(String message) {
    listener.step(message);
  }

  void abort(String reason) {
    abortReason = reason;
    aborted.countDown();
    synchronized (this) {
      if (settingUp != null) {
        // Creating 400,000 consumers takes minutes: the creation loops stop at the interrupt.
        settingUp.interrupt();
      }
    }
  }

  /**
   * From now until {@link #setUpEnded}, an abort interrupts the calling thread, which is creating
   * topics and clients.
   */
  synchronized void settingUp() {
    settingUp = Thread.currentThread();
    if (abortReason != null) {
      settingUp.interrupt();
    }
  }

  /** Set-up is over: aborts no longer interrupt, and an interrupt that came too late is dropped. */
  synchronized void setUpEnded() {
    if (settingUp != null) {
      settingUp = null;
      Thread.interrupted();
    }
  }

  /** Why the run was stopped from outside; null while it was not. */
  String abortReason() {
    return abortReason;
  }

  /** Waits up to {@code time}; true when the run was aborted. */
  boolean waitOrAbort(Duration time) {
    try {
      return aborted.await(time.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abort("interrupted");
      return true;
    }
  }

  static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
