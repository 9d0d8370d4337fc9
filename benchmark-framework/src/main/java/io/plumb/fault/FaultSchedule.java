package io.plumb.fault;

import io.plumb.input.BadInputException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Runs a fault plan beside the load: checks it against the cluster before any load, then, from the
 * start of the measured phase, applies each fault at its time and undoes it after its duration, on
 * a thread of its own so a slow restart never delays the next fault. Every action is stamped with
 * the clock of the latency samples. When load stops, whatever is still in effect is undone, so the
 * drain and the next run see a whole cluster.
 */
public final class FaultSchedule implements AutoCloseable {
  private static final long LEADER_WAIT_NANOS = 10_000_000_000L;

  private final FaultPlan plan;
  private final LocalCluster cluster;
  private final LeaderSource leaders;
  private final LongSupplier clock;
  private final Consumer<String> progress;
  private final NodeControl control;
  private final FaultRecord[] records;
  private final CountDownLatch loadStopped = new CountDownLatch(1);
  private final List<Thread> threads = new ArrayList<>();
  private final Random random = new Random();
  private volatile long measureStart;

  /**
   * @param clock the clock of the latency samples (the in-process worker's)
   * @param progress told of each action as it happens, for the console
   */
  public FaultSchedule(
      FaultPlan plan,
      LocalCluster cluster,
      LeaderSource leaders,
      LongSupplier clock,
      Consumer<String> progress) {
    this.plan = plan;
    this.cluster = cluster;
    this.leaders = leaders;
    this.clock = clock;
    this.progress = progress;
    this.control = new NodeControl(cluster);
    this.records = new FaultRecord[plan.faults().size()];
    for (int i = 0; i < records.length; i++) {
      FaultSpec spec = plan.faults().get(i);
      records[i] =
          new FaultRecord(
              spec,
              List.of(),
              spec.target().needsLeader() && leaders.available() ? leaders.meaning() : null,
              0,
              0,
              null);
    }
  }

  public FaultPlan plan() {
    return plan;
  }

  /**
   * Refuses, with one line naming the plan file, the entry and the field, what cannot work here: a
   * cluster of one node, a node that does not exist or is not running, a time past the measured
   * phase, the leader on a driver that cannot name it, a network cut this machine cannot make.
   */
  public void check(Duration measuredLength) {
    List<ClusterNode> numbered = cluster.numberedNodes();
    if (numbered.size() < 2) {
      throw new BadInputException(
          plan.file()
              + ": faults need a cluster, and "
              + cluster.broker()
              + " has "
              + (numbered.isEmpty() ? "no node recorded in " + cluster.stateDir() : "1 node")
              + ": "
              + cluster.startHint());
    }
    for (ClusterNode node : numbered) {
      if (!node.running()) {
        throw new BadInputException(
            plan.file()
                + ": "
                + cluster.broker()
                + " "
                + node
                + " is not running; start it with "
                + cluster.script()
                + " start-node "
                + node.name());
      }
    }
    String names =
        cluster.nodes().stream().map(ClusterNode::name).collect(Collectors.joining(", "));
    for (FaultSpec spec : plan.faults()) {
      String where = plan.where(spec);
      if (spec.at().compareTo(measuredLength) >= 0) {
        throw new BadInputException(
            where
                + ": field 'at': "
                + Durations.text(spec.at())
                + " is past the end of the measured phase ("
                + Durations.text(measuredLength)
                + ")");
      }
      if (spec.target().kind() == FaultTarget.Kind.NODE
          && cluster.node(spec.target().node().orElseThrow()).isEmpty()) {
        throw new BadInputException(
            where
                + ": field 'target': no "
                + spec.target()
                + " in the "
                + cluster.broker()
                + " cluster (its nodes: "
                + names
                + ")");
      }
      if (spec.target().needsLeader() && !leaders.available()) {
        throw new BadInputException(
            where
                + ": field 'target': "
                + spec.target()
                + " needs a driver that can name the leader, and this one cannot; aim at a node instead, e.g. target: node 1");
      }
      if (spec.action().cutsNetwork()) {
        Optional<String> why = NetworkCut.unsupported(cluster.nodes());
        if (why.isPresent()) {
          throw new BadInputException(
              where
                  + ": field 'action': "
                  + spec.action().word()
                  + " cannot be done on this machine: "
                  + why.get());
        }
      }
    }
  }

  /** The measured phase starts now: every fault's clock starts. */
  public void start() {
    measureStart = clock.getAsLong();
    for (int i = 0; i < records.length; i++) {
      int index = i;
      Thread thread = new Thread(() -> runFault(index), "plumb-fault-" + (i + 1));
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  /** When the measured phase started, on the samples' clock; 0 before {@link #start}. */
  public long measureStart() {
    return measureStart;
  }

  /**
   * Load has stopped: faults not yet applied never will be, and every fault still in effect is
   * undone now. Returns once each fault's thread has finished.
   */
  public void loadStopped() {
    loadStopped.countDown();
    for (Thread thread : threads) {
      try {
        thread.join(TimeUnit.MINUTES.toMillis(6));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  public synchronized List<FaultRecord> records() {
    return List.of(records.clone());
  }

  @Override
  public void close() {
    loadStopped();
  }

  private void runFault(int index) {
    FaultSpec spec = records[index].spec();
    long due = measureStart + spec.at().toNanos();
    if (waitUntil(due)) {
      update(index, records[index].withError("not applied: load stopped first"));
      return;
    }
    List<ClusterNode> hit;
    try {
      hit = resolve(spec);
      long appliedAt = clock.getAsLong();
      update(
          index,
          records[index].withApplied(hit.stream().map(ClusterNode::name).toList(), appliedAt));
      progress.accept(
          "fault " + spec.index() + ": " + spec.action().word() + " " + describe(spec, hit));
      List<NetworkCut> cuts = apply(spec, hit);
      boolean stopped =
          spec.duration().isPresent()
              ? waitUntil(appliedAt + spec.duration().get().toNanos())
              : waitUntil(Long.MAX_VALUE);
      undo(index, spec, hit, cuts, stopped);
    } catch (FaultException e) {
      update(index, records[index].withError(e.getMessage()));
      progress.accept("fault " + spec.index() + ": " + e.getMessage());
    }
  }

  private List<NetworkCut> apply(FaultSpec spec, List<ClusterNode> hit) {
    List<NetworkCut> cuts = new ArrayList<>();
    for (ClusterNode node : hit) {
      String table = "plumb_fault_" + spec.index() + "_" + node.name().replaceAll("\\W", "_");
      switch (spec.action()) {
        case KILL -> control.kill(node);
        case FREEZE -> control.freeze(node);
        case RESTART -> control.stop(node);
        case ISOLATE -> cuts.add(NetworkCut.isolate(table, node));
        case PARTITION ->
            cuts.add(
                NetworkCut.partition(
                    table,
                    node,
                    cluster.nodes().stream().filter(n -> !n.name().equals(node.name())).toList()));
      }
    }
    return cuts;
  }

  private void undo(
      int index, FaultSpec spec, List<ClusterNode> hit, List<NetworkCut> cuts, boolean early) {
    try {
      for (NetworkCut cut : cuts) {
        cut.heal();
      }
      for (ClusterNode node : hit) {
        switch (spec.action()) {
          case FREEZE -> control.thaw(node);
          case KILL, RESTART -> control.start(node);
          default -> {}
        }
      }
      update(index, records[index].withUndone(clock.getAsLong()));
      progress.accept(
          "fault "
              + spec.index()
              + ": "
              + undoneWord(spec)
              + " "
              + hit.stream().map(ClusterNode::toString).collect(Collectors.joining(", "))
              + (early ? " (load stopped)" : ""));
    } catch (FaultException e) {
      update(index, records[index].withError("undoing: " + e.getMessage()));
      progress.accept("fault " + spec.index() + ": undoing failed: " + e.getMessage());
    }
  }

  private static String undoneWord(FaultSpec spec) {
    return switch (spec.action()) {
      case FREEZE -> "thawed";
      case KILL, RESTART -> "started again";
      case ISOLATE, PARTITION -> "reconnected";
    };
  }

  private List<ClusterNode> resolve(FaultSpec spec) {
    List<ClusterNode> numbered = cluster.numberedNodes();
    return switch (spec.target().kind()) {
      case NODE ->
          List.of(
              cluster
                  .node(spec.target().node().orElseThrow())
                  .orElseThrow(() -> new FaultException("no " + spec.target())));
      case RANDOM -> {
        List<ClusterNode> running = numbered.stream().filter(ClusterNode::running).toList();
        if (running.isEmpty()) {
          throw new FaultException("no node is running to pick at random");
        }
        yield List.of(running.get(random.nextInt(running.size())));
      }
      case LEADER -> List.of(leader(numbered));
      case FOLLOWERS -> {
        ClusterNode leader = leader(numbered);
        yield numbered.stream().filter(n -> !n.name().equals(leader.name())).toList();
      }
    };
  }

  /** Asks the broker, waiting out an election in progress (up to 10 s). */
  private ClusterNode leader(List<ClusterNode> nodes) {
    long deadline = System.nanoTime() + LEADER_WAIT_NANOS;
    String answer = null;
    while (System.nanoTime() < deadline) {
      Optional<String> leader;
      try {
        leader = leaders.leader();
      } catch (RuntimeException e) {
        leader = Optional.empty();
        answer = "error: " + e.getMessage();
      }
      if (leader.isPresent()) {
        answer = leader.get();
        for (ClusterNode node : cluster.nodes()) {
          if (node.answersTo(answer)) {
            return node;
          }
        }
        throw new FaultException(
            "the broker named "
                + answer
                + " as "
                + leaders.meaning()
                + ", which is no node of the cluster's state files");
      }
      if (waitUntil(clock.getAsLong() + 200_000_000L)) {
        break;
      }
    }
    throw new FaultException(
        "the broker named no "
            + leaders.meaning()
            + " within 10 s"
            + (answer == null ? "" : " (" + answer + ")"));
  }

  private String describe(FaultSpec spec, List<ClusterNode> hit) {
    String nodes = hit.stream().map(ClusterNode::toString).collect(Collectors.joining(", "));
    String why =
        spec.target().needsLeader() ? " (" + spec.target() + ": " + leaders.meaning() + ")" : "";
    return nodes + why + spec.duration().map(d -> " for " + Durations.text(d)).orElse("");
  }

  /** Waits until {@code time} on the run's clock; true when load stopped first. */
  private boolean waitUntil(long time) {
    try {
      while (true) {
        long left = time - clock.getAsLong();
        if (left <= 0) {
          return loadStopped.getCount() == 0;
        }
        if (loadStopped.await(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS)) {
          return true;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  private synchronized void update(int index, FaultRecord record) {
    records[index] = record;
  }
}
