package io.plumb.remote;

import io.plumb.stats.PeriodStats;

/** One remote worker of an ensemble, with what the coordinator knows about it. */
final class RemoteMember {
  final HttpWorker worker;
  volatile ClockOffset clock;
  // Since the measured phase started; only the run's thread touches it.
  PeriodStats.Builder total = new PeriodStats.Builder();
  volatile long lastAnswer = System.nanoTime();
  volatile boolean failingSinceAnswer;
  volatile String lastProblem = "";
  volatile String lost;
  int producers;
  int consumers;

  RemoteMember(HttpWorker worker, ClockOffset clock) {
    this.worker = worker;
    this.clock = clock;
  }

  String name() {
    return worker.name();
  }
}
