package io.plumb.remote;

import io.plumb.stats.PeriodStats;

/** One remote worker of an ensemble, with what the coordinator knows about it. */
final class RemoteMember {
  final HttpWorker worker;
  final ClockProbe clockProbe;
  volatile ClockOffset clock;
  // Since the measured phase started; only the run's thread touches it.
  PeriodStats.Builder total = new PeriodStats.Builder();
  volatile long lastAnswer = System.nanoTime();
  volatile boolean failingSinceAnswer;
  volatile String lastProblem = "";
  volatile String lost;
  int producers;
  int consumers;

  RemoteMember(HttpWorker worker, ClockProbe clockProbe, ClockOffset clock) {
    this.worker = worker;
    this.clockProbe = clockProbe;
    this.clock = clock;
  }

  String name() {
    return worker.name();
  }
}
