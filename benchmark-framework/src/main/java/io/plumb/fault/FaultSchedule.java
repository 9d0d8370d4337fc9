package io.plumb.fault;

import io.plumb.driver.DaemonThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
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

  /**
   * How long, once load has stopped, faults still being applied or undone are waited for: a kill of
   * one node is undone by its start script, allowed 300 s.
   */
  public static final Duration UNDO_WAIT = Duration.ofMinutes(6);

  private final FaultPlan plan;
  private final LocalCluster cluster;
  private final LeaderSource leaders;
  private final LongSupplier clock;
  private final Consumer<String> progress;
  private final FaultActions actions;
  private final FaultRecord[] records;
  private final CountDownLatch loadStopped = new CountDownLatch(1);
  private final List<Thread> threads = new ArrayList<>();
  private final Random random = new Random();
  private final Duration undoWait;

  /** Whether each fault's outcome is decided: its thread is done, or the wait ran out. */
  private final boolean[] settled;

  private long undoDeadline;
  private volatile long measureStart;

  /**
   * @param clock the clock of the latency samples (the in-process worker's)
   * @param progress told of each action as it happens, for the console
   * @param undoWait how long {@link #loadStopped} waits for faults still being applied or undone
   *     ({@link #UNDO_WAIT})
   */
  public FaultSchedule(
      FaultPlan plan,
      LocalCluster cluster,
      LeaderSource leaders,
      LongSupplier clock,
      Consumer<String> progress,
      Duration undoWait) {
    this.plan = plan;
    this.undoWait = undoWait;
    this.cluster = cluster;
    this.leaders = leaders;
    this.clock = clock;
    this.progress = progress;
    this.actions = new FaultActions(cluster);
    this.records = new FaultRecord[plan.faults().size()];
    this.settled = new boolean[records.length];
    for (int i = 0; i < records.length; i++) {
      FaultSpec spec = plan.faults().get(i);
      records[i] = new FaultRecord(spec, List.of(), meaning(spec.target(), leaders), 0, 0, null);
    }
  }

  public FaultPlan plan() {
    return plan;
  }

  /**
   * Refuses, with one line naming the plan file, the entry and the field, what cannot work here
   * ({@link FaultPreflight}): before any load, so that a fault that would do nothing never passes.
   */
  public void check(Duration measuredLength) {
    new FaultPreflight(plan, cluster, leaders).check(measuredLength);
  }

  /**
   * The measured phase has started, {@code startedNanosAgo} ago (where its first period began):
   * every fault's clock starts there, so that faults land, and are marked, on the periods' time.
   */
  public void start(long startedNanosAgo) {
    measureStart = clock.getAsLong() - startedNanosAgo;
    for (int i = 0; i < records.length; i++) {
      int index = i;
      threads.add(DaemonThreads.start("plumb-fault-" + (i + 1), () -> runFault(index)));
    }
  }

  /** When the measured phase started, on the samples' clock; 0 before {@link #start}. */
  public long measureStart() {
    return measureStart;
  }

  /**
   * Load has stopped: faults not yet applied never will be, and every fault still in effect is
   * undone now. Returns once each fault's thread has finished, or once the wait has run out (one
   * wait from the first call, however often this is called): a fault still being applied or undone
   * then has failed, since the drain and the final read go on without the cluster it was to leave
   * whole. Its thread goes on, so a node slow to start may still be up for the next run.
   */
  public void loadStopped() {
    loadStopped.countDown();
    long deadline = undoDeadline();
    try {
      for (Thread thread : threads) {
        long left = deadline - System.nanoTime();
        if (left > 0) {
          TimeUnit.NANOSECONDS.timedJoin(thread, left);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      for (int i = 0; i < threads.size(); i++) {
        unfinished(i);
      }
    }
  }

  private synchronized long undoDeadline() {
    if (undoDeadline == 0) {
      undoDeadline = System.nanoTime() + undoWait.toNanos();
    }
    return undoDeadline;
  }

  /** Fails fault {@code index} if it is still being applied or undone now the wait ran out. */
  private void unfinished(int index) {
    String problem;
    int number;
    synchronized (this) {
      if (settled[index]) {
        return;
      }
      settled[index] = true;
      problem = records[index].unfinishedAfter(undoWait);
      records[index] = records[index].withError(problem);
      number = records[index].spec().index();
    }
    progress.accept("fault " + number + ": " + problem);
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
      settle(index, record -> record.withError("not applied: load stopped first"));
      return;
    }
    List<ClusterNode> hit;
    try {
      hit = resolve(spec);
      for (ClusterNode node : hit) {
        if (!node.running()) {
          throw new FaultException(
              node + " is gone (PID " + node.values().getOrDefault("PID", "") + " is not running)");
        }
      }
    } catch (FaultException e) {
      failed(index, spec, e.getMessage());
      return;
    }
    // Stamped as the action starts (the moment a kill lands), published once it has taken
    // effect, so whoever sees the fault applied sees its effect too.
    long appliedAt = clock.getAsLong();
    FaultActions.Applied applied = new FaultActions.Applied();
    try {
      actions.apply(spec, hit, applied);
    } catch (RuntimeException e) {
      // Any failure, not only a FaultException: what took effect must be undone all the same.
      String problem = e instanceof FaultException ? e.getMessage() : e.toString();
      if (applied.nothing()) {
        // Nothing was done: the fault must not read as applied, nor cut the run's windows.
        failed(index, spec, problem);
        return;
      }
      // Part of it took effect: one node of several frozen or cut off, nodes killed before a
      // later one would not die or a layer would not drop. That part is undone at once, not at
      // the fault's planned end: the run fails on this fault whatever follows (FaultFailures), so
      // keeping in effect a fault the plan did not ask for measures nothing, while a node left
      // frozen, cut off or down (a cut is a table in the kernel, which outlives the run) would
      // spoil the drain, the final read and the next run.
      update(index, record -> record.withApplied(applied.names(), appliedAt).withError(problem));
      progress.accept("fault " + spec.index() + ": " + problem + "; undoing what was applied");
      undo(index, spec, applied, " (the fault failed partway)");
      return;
    }
    update(index, record -> record.withApplied(applied.names(), appliedAt));
    progress.accept(
        "fault " + spec.index() + ": " + spec.action().word() + " " + describe(spec, hit));
    boolean stopped =
        spec.duration().isPresent()
            ? waitUntil(appliedAt + spec.duration().get().toNanos())
            : waitUntil(Long.MAX_VALUE);
    undo(index, spec, applied, stopped ? " (load stopped)" : "");
  }

  private void failed(int index, FaultSpec spec, String problem) {
    settle(index, record -> record.withError(problem));
    progress.accept("fault " + spec.index() + ": " + problem);
  }

  /** Undoes what of the fault took effect, and records and tells how that went. */
  private void undo(int index, FaultSpec spec, FaultActions.Applied applied, String why) {
    List<String> problems = actions.undo(spec, applied);
    if (!problems.isEmpty()) {
      String problem = String.join("; ", problems);
      settle(index, record -> record.withError("undoing: " + problem));
      progress.accept("fault " + spec.index() + ": undoing failed: " + problem);
      return;
    }
    long undone = clock.getAsLong();
    settle(index, record -> record.withUndone(undone));
    progress.accept(
        "fault "
            + spec.index()
            + ": "
            + FaultActions.undoneWord(spec)
            + " "
            + applied.nodes().stream().map(ClusterNode::toString).collect(Collectors.joining(", "))
            + why);
  }

  private List<ClusterNode> resolve(FaultSpec spec) {
    List<ClusterNode> numbered = cluster.numberedNodes();
    return switch (spec.target().kind()) {
      case NODE ->
          List.of(
              cluster
                  .node(spec.target().node().orElseThrow())
                  .orElseThrow(() -> new FaultException("no " + spec.target())));
      case ALL -> cluster.nodes();
      case RANDOM -> {
        List<ClusterNode> running = numbered.stream().filter(ClusterNode::running).toList();
        if (running.isEmpty()) {
          throw new FaultException("no node is running to pick at random");
        }
        yield List.of(running.get(random.nextInt(running.size())));
      }
      case FOLLOWERS -> {
        ClusterNode leader = located(firstRole(leaders));
        yield numbered.stream().filter(n -> !n.name().equals(leader.name())).toList();
      }
      case LEADER, PRIMARY, BROKER_OWNER, BOOKIE ->
          List.of(located(spec.target().roleWord().orElseThrow()));
    };
  }

  /** Asks the broker which node {@code role} names, waiting out an election (up to 10 s). */
  private ClusterNode located(String role) {
    String meaning = leaders.targets().getOrDefault(role, role);
    long deadline = System.nanoTime() + LEADER_WAIT_NANOS;
    String answer = null;
    while (System.nanoTime() < deadline) {
      Optional<String> named;
      try {
        named = leaders.locate(role);
      } catch (RuntimeException e) {
        named = Optional.empty();
        answer = "error: " + e.getMessage();
      }
      if (named.isPresent()) {
        answer = named.get();
        for (ClusterNode node : cluster.nodes()) {
          if (node.answersTo(answer)) {
            return node;
          }
        }
        throw new FaultException(
            "the broker named "
                + answer
                + " as "
                + meaning
                + ", which is no node of the cluster's state files");
      }
      if (waitUntil(clock.getAsLong() + 200_000_000L)) {
        break;
      }
    }
    throw new FaultException(
        "the broker named no "
            + meaning
            + " within 10 s"
            + (answer == null ? "" : " (" + answer + ")"));
  }

  /**
   * The role {@code followers} is relative to: the driver's role that comes first in {@link
   * FaultTarget.Kind}'s order (leader, primary, ...), whatever order its map keeps.
   */
  static String firstRole(LeaderSource leaders) {
    return FaultTarget.roleOrder(leaders.targets().keySet()).stream()
        .filter(word -> !word.equals(FaultTarget.Kind.FOLLOWERS.word()))
        .findFirst()
        .orElseThrow(() -> new FaultException("the driver names no node"));
  }

  /** What the target means for this broker, for the result; null for node, random. */
  private static String meaning(FaultTarget target, LeaderSource leaders) {
    if (target.kind() == FaultTarget.Kind.FOLLOWERS && !leaders.targets().isEmpty()) {
      return "all but the " + leaders.targets().get(firstRole(leaders));
    }
    return target.roleWord().map(leaders.targets()::get).orElse(null);
  }

  private String describe(FaultSpec spec, List<ClusterNode> hit) {
    String nodes = hit.stream().map(ClusterNode::toString).collect(Collectors.joining(", "));
    String meaning = meaning(spec.target(), leaders);
    String why = meaning == null ? "" : " (" + spec.target() + ": " + meaning + ")";
    return nodes
        + why
        + spec.duration().map(d -> " for " + Durations.text(d)).orElse("")
        + nothingToDrop(spec, hit);
  }

  /**
   * For a power loss, the nodes that keep no data and had no layer to drop: for them it was a kill,
   * and the console says so rather than let the line suggest they lost something.
   */
  private static String nothingToDrop(FaultSpec spec, List<ClusterNode> hit) {
    if (spec.action() != FaultAction.POWER_LOSS) {
      return "";
    }
    List<String> spared =
        hit.stream()
            .filter(n -> n.keepsNoData() && n.powerLossLayer().isEmpty())
            .map(ClusterNode::toString)
            .toList();
    return spared.isEmpty()
        ? ""
        : "; "
            + String.join(", ", spared)
            + (spared.size() == 1 ? " keeps" : " keep")
            + " no data: killed, nothing to drop";
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

  /**
   * Changes a fault's record under the lock, so that a change from its thread never drops one made
   * meanwhile by {@link #loadStopped} (an undo that outlived the wait stays failed).
   */
  private synchronized void update(int index, UnaryOperator<FaultRecord> change) {
    records[index] = change.apply(records[index]);
  }

  /** The last change of a fault's thread: its outcome is decided, unless the wait decided first. */
  private synchronized void settle(int index, UnaryOperator<FaultRecord> change) {
    update(index, change);
    settled[index] = true;
  }
}
