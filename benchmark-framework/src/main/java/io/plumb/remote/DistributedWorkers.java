package io.plumb.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.input.BadInputException;
import io.plumb.load.WorkerClock;
import io.plumb.result.Percentiles;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.Worker;
import io.plumb.worker.WorkerException;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Several remote workers acting as one: producers and consumers are dealt out by {@link
 * WorkerRoles}, periods are merged losslessly (histograms travel encoded), and each worker's own
 * share is kept for the result's per-worker breakdown.
 *
 * <p>Every producer keeps the workload's per-producer rate, so the total is the workload's rate
 * however producers fall on workers (a worker with no producer simply sends nothing).
 *
 * <p>Watches its workers: a lease renewal every second doubles as a heartbeat, and a worker that
 * has not answered for {@link #LOST_AFTER} is declared lost; the run is told (and then stops the
 * others and writes what it has, marked incomplete).
 */
public final class DistributedWorkers implements Worker {
  static final Duration LOST_AFTER = Duration.ofSeconds(6);
  private static final Duration RENEW_EVERY = Duration.ofSeconds(1);
  private static final Duration MIN_START_DELAY = Duration.ofMillis(300);
  private static final String LOOPBACK_DRIVER = "io.plumb.loopback.LoopbackDriver";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<Member> members;
  private final List<Member> producing;
  private final List<Member> consuming;
  private final WorkerRoles roles;
  private final ExecutorService calls = Executors.newCachedThreadPool(daemon("plumb-calls"));
  private final ScheduledExecutorService heartbeat =
      Executors.newSingleThreadScheduledExecutor(daemon("plumb-heartbeat"));
  private volatile Consumer<String> onLost = reason -> {};
  private String firstLoss;
  private boolean topicsPerWorker;

  /** One remote worker with what the coordinator knows about it. */
  private static final class Member {
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

    Member(HttpWorker worker, ClockOffset clock) {
      this.worker = worker;
      this.clock = clock;
    }

    String name() {
      return worker.name();
    }
  }

  private DistributedWorkers(List<Member> members, WorkerRoles roles) {
    this.members = members;
    this.roles = members.size() == 1 ? WorkerRoles.BOTH : roles;
    if (this.roles == WorkerRoles.SPLIT) {
      producing = members.subList(0, members.size() / 2);
      consuming = members.subList(members.size() / 2, members.size());
    } else {
      producing = members;
      consuming = members;
    }
  }

  /** Reaches every worker and measures its clock; an unreachable worker is named within seconds. */
  public static DistributedWorkers connect(List<HttpWorker> workers, WorkerRoles roles) {
    List<CompletableFuture<Long>> reached = new ArrayList<>();
    ExecutorService probes = Executors.newFixedThreadPool(workers.size(), daemon("plumb-connect"));
    try {
      // All at once, so every unreachable worker is named within one connect timeout.
      for (HttpWorker worker : workers) {
        reached.add(CompletableFuture.supplyAsync(worker::clock, probes));
      }
      List<Member> members = new ArrayList<>();
      List<String> unreachable = new ArrayList<>();
      for (int i = 0; i < workers.size(); i++) {
        try {
          reached.get(i).join();
          members.add(new Member(workers.get(i), measureClock(workers.get(i))));
        } catch (CompletionException | WorkerException e) {
          Throwable cause = e instanceof CompletionException ? e.getCause() : e;
          if (cause instanceof BadInputException bad) {
            throw bad;
          }
          unreachable.add(HttpWorker.describe(cause));
        }
      }
      if (!unreachable.isEmpty()) {
        throw new BadInputException(
            "--workers: "
                + String.join("; ", unreachable)
                + " (is bin/benchmark-worker running there, and the URL's scheme and port right?)");
      }
      DistributedWorkers ensemble = new DistributedWorkers(List.copyOf(members), roles);
      ensemble.startHeartbeat();
      return ensemble;
    } finally {
      probes.shutdownNow();
    }
  }

  private static final WorkerClock COORDINATOR_CLOCK = new WorkerClock();

  /**
   * One worker at a time, after a few unmeasured calls: parallel round trips and a cold connection
   * only widen the round trips, and with them the uncertainty.
   */
  private static ClockOffset measureClock(HttpWorker worker) {
    ClockOffset.measure(COORDINATOR_CLOCK::now, worker::clock, 3);
    return ClockOffset.measure(COORDINATOR_CLOCK::now, worker::clock, ClockOffset.ROUNDS);
  }

  /** Who to tell when a worker is lost mid-run (the run aborts with this reason). */
  public void onWorkerLost(Consumer<String> listener) {
    this.onLost = listener;
  }

  @Override
  public String name() {
    return members.size() + " remote workers";
  }

  @Override
  public DriverInfo initializeDriver(DriverSetup setup, int runId) {
    List<DriverInfo> infos = onEach(members, w -> w.initializeDriver(setup, runId));
    DriverInfo info = infos.get(0);
    // The loopback driver is a "broker" inside each worker's JVM: every worker needs the topics.
    topicsPerWorker = info.driverClass().equals(LOOPBACK_DRIVER);
    return info;
  }

  @Override
  public Map<String, String> createTopics(List<TopicSpec> topics) {
    return onEach(topicsPerWorker ? members : members.subList(0, 1), w -> w.createTopics(topics))
        .get(0);
  }

  @Override
  public void createConsumers(List<ConsumerSpec> consumers) {
    // Measure again now the JVMs are warm, keeping the tighter result, before offsets are used.
    for (Member member : live()) {
      member.clock = member.clock.tighter(measureClock(member.worker));
    }
    Map<Member, List<ConsumerSpec>> shares = new LinkedHashMap<>();
    for (int i = 0; i < consumers.size(); i++) {
      shares
          .computeIfAbsent(consuming.get(i % consuming.size()), m -> new ArrayList<>())
          .add(consumers.get(i));
    }
    parallel(
        List.copyOf(shares.keySet()),
        member -> {
          member.worker.applyClockCorrections(correctionsFor(member));
          member.worker.createConsumers(shares.get(member));
          member.consumers = shares.get(member).size();
          return null;
        });
  }

  /**
   * For each producing worker, in the order producers are dealt, its clock minus {@code
   * consumer}'s: added to the consumer's receive times, it puts them on the producer's clock.
   */
  private ClockCorrections correctionsFor(Member consumer) {
    List<Long> slots = new ArrayList<>();
    for (Member producer : producing) {
      slots.add(producer.clock.offsetNanos() - consumer.clock.offsetNanos());
    }
    return ClockCorrections.bySlot(slots);
  }

  @Override
  public void createProducers(List<ProducerSpec> producers, MessageSpec messages) {
    Map<Member, List<ProducerSpec>> shares = new LinkedHashMap<>();
    for (ProducerSpec producer : producers) {
      Member member =
          producing.get(ClockCorrections.slotOf(producer.producerId(), producing.size()));
      shares.computeIfAbsent(member, m -> new ArrayList<>()).add(producer);
    }
    parallel(
        List.copyOf(shares.keySet()),
        member -> {
          member.worker.createProducers(shares.get(member), messages);
          member.producers = shares.get(member).size();
          return null;
        });
  }

  @Override
  public void sendProbes() {
    onEach(withProducers(), w -> run(w::sendProbes));
  }

  @Override
  public Map<String, Long> probesReceived() {
    Map<String, Long> merged = new LinkedHashMap<>();
    for (Map<String, Long> probes : onEach(withConsumers(), Worker::probesReceived)) {
      probes.forEach((key, count) -> merged.merge(key, count, Long::sum));
    }
    return merged;
  }

  @Override
  public void startLoad(LoadSpec load) {
    // Every producing worker gets the same relative start; the delay covers the calls' spread.
    long delay = Math.max(load.startDelayNanos(), MIN_START_DELAY.toNanos());
    long firstDue = System.nanoTime() + delay;
    onEach(
        withProducers(), w -> run(() -> w.startLoad(new LoadSpec(load.ratePerProducer(), delay))));
    // Return no earlier than a local worker would, relative to the first messages being due, so
    // the run's first period does not count the longer remote start delay as time without sends.
    long returnAt = firstDue - load.startDelayNanos();
    for (long wait = returnAt - System.nanoTime(); wait > 0; wait = returnAt - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
  }

  @Override
  public void adjustRate(double ratePerProducer) {
    // Like the start: every producing worker at once, so they change within one round trip.
    onEach(withProducers(), w -> run(() -> w.adjustRate(ratePerProducer)));
  }

  @Override
  public void pauseConsumers() {
    onEach(withConsumers(), w -> run(w::pauseConsumers));
  }

  @Override
  public void resumeConsumers() {
    onEach(withConsumers(), w -> run(w::resumeConsumers));
  }

  /** The breakdown covers what the result's latencies cover: from here on, warm-up left out. */
  @Override
  public void startMeasuring() {
    for (Member member : members) {
      member.total = new PeriodStats.Builder();
    }
  }

  @Override
  public PeriodStats takePeriod() {
    failIfLost();
    PeriodStats.Builder merged = new PeriodStats.Builder();
    // Sequential calls would shift each worker's period by the others' round trips: ask all at
    // once.
    Map<Member, CompletableFuture<PeriodStats>> periods = new LinkedHashMap<>();
    for (Member member : live()) {
      periods.put(member, CompletableFuture.supplyAsync(member.worker::takePeriod, calls));
    }
    periods.forEach(
        (member, future) -> {
          try {
            PeriodStats period = future.join();
            member.total.add(period);
            merged.add(period);
          } catch (CompletionException e) {
            // What the others sent still counts; the loss stops the run at the next period.
            lose(member, HttpWorker.describe(e.getCause()));
          }
        });
    return merged.build();
  }

  @Override
  public long scheduleLag() {
    long lag = 0;
    for (long value : tolerant(withProducers(), Worker::scheduleLag)) {
      lag += value;
    }
    return lag;
  }

  @Override
  public void stopLoad() {
    tolerant(withProducers(), w -> run(w::stopLoad));
  }

  /**
   * Acknowledgements add up (each producer lives on one worker), but what consumers received is
   * merged as sets: one subscription's consumers may sit on several workers, and a message the
   * broker delivered to two of them (a redelivery after a rebalance) is one distinct message and
   * one duplicate that neither worker could see on its own.
   */
  @Override
  public Totals totals() {
    Map<Integer, Long> acked = new LinkedHashMap<>();
    Map<String, Map<Integer, SequenceRanges>> received = new LinkedHashMap<>();
    long duplicates = 0;
    for (Totals totals : tolerant(live(), Worker::totals)) {
      totals.ackedByProducer().forEach((id, count) -> acked.merge(id, count, Long::sum));
      duplicates += totals.duplicatesAcrossWorkers();
      for (var subscription : totals.receivedBySubscription().entrySet()) {
        Map<Integer, SequenceRanges> merged =
            received.computeIfAbsent(subscription.getKey(), key -> new LinkedHashMap<>());
        for (var producer : subscription.getValue().entrySet()) {
          SequenceRanges before = merged.getOrDefault(producer.getKey(), SequenceRanges.EMPTY);
          duplicates += before.overlap(producer.getValue());
          merged.put(producer.getKey(), before.union(producer.getValue()));
        }
      }
    }
    return new Totals(acked, received, duplicates);
  }

  @Override
  public List<String> firstErrors() {
    List<String> errors = new ArrayList<>();
    for (Member member : members) {
      if (member.lost != null) {
        errors.add("worker " + member.name() + " lost: " + member.lost);
      }
    }
    List<Member> live = live();
    List<List<String>> each = tolerant(live, Worker::firstErrors);
    for (int i = 0; i < each.size(); i++) {
      for (String error : each.get(i)) {
        errors.add("worker " + live.get(i).name() + ": " + error);
      }
    }
    return errors;
  }

  @Override
  public void closeClients(List<String> topicsToDelete) {
    List<Member> live = live();
    if (live.isEmpty()) {
      return;
    }
    if (topicsPerWorker) {
      onEach(live, w -> run(() -> w.closeClients(topicsToDelete)));
      return;
    }
    // Everyone closes their clients before one worker deletes the topics they used.
    onEach(live.subList(1, live.size()), w -> run(() -> w.closeClients(List.of())));
    live.get(0).worker.closeClients(topicsToDelete);
  }

  @Override
  public void close() {
    heartbeat.shutdownNow();
    try {
      onEach(live(), w -> run(w::close));
    } finally {
      calls.shutdownNow();
    }
  }

  /**
   * Each worker's role, clock offset and share of the measured phase and the drain after it, like
   * the result's latencies (warm-up left out).
   */
  public ObjectNode breakdown() {
    ObjectNode node = JSON.createObjectNode();
    node.put("roles", roles.name().toLowerCase(java.util.Locale.ROOT));
    node.put("clockReference", "coordinator");
    node.put(
        "note",
        "per-worker counts and latencies cover the measured phase and the drain after it, like the aggregated latencies (warm-up left out); clock offsets are worker minus coordinator, and end-to-end latency is corrected by the producing and consuming workers' offset difference");
    ArrayNode list = node.putArray("workers");
    for (Member member : members) {
      ObjectNode entry = list.addObject();
      entry.put("url", member.name());
      entry.put("producers", member.producers);
      entry.put("consumers", member.consumers);
      entry.put("clockOffsetMillis", member.clock.offsetNanos() / 1e6);
      entry.put("clockUncertaintyMillis", member.clock.uncertaintyNanos() / 1e6);
      entry.put("lost", member.lost != null);
      if (member.lost != null) {
        entry.put("lostReason", member.lost);
      }
      PeriodStats total = member.total.build();
      entry.put("sent", total.sent());
      entry.put("acknowledged", total.acknowledged());
      entry.put("failed", total.failed());
      entry.put("received", total.received());
      entry.put("duplicates", total.duplicates());
      entry.put("consumerErrors", total.consumerErrors());
      entry.put("negativeEndToEnd", total.negativeEndToEnd());
      latency(entry.putObject("publishLatencyMillis"), total.publishLatency());
      latency(entry.putObject("endToEndLatencyMillis"), total.endToEndLatency());
    }
    return node;
  }

  private static void latency(ObjectNode node, org.HdrHistogram.Histogram histogram) {
    node.put("count", histogram.getTotalCount());
    node.put("p50", Percentiles.millis(histogram, 50));
    node.put("p99", Percentiles.millis(histogram, 99));
    node.put("max", Percentiles.maxMillis(histogram));
  }

  private void startHeartbeat() {
    long now = System.nanoTime();
    for (Member member : members) {
      member.lastAnswer = now;
    }
    heartbeat.scheduleWithFixedDelay(
        this::renewLeases, 0, RENEW_EVERY.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void renewLeases() {
    long now = System.nanoTime();
    for (Member member : live()) {
      member
          .worker
          .renewLease(LOST_AFTER.dividedBy(2))
          .whenComplete(
              (ok, failure) -> {
                if (failure == null) {
                  member.lastAnswer = System.nanoTime();
                  member.failingSinceAnswer = false;
                } else {
                  member.lastProblem = HttpWorker.describe(failure);
                  member.failingSinceAnswer = true;
                }
              });
      long silent = now - member.lastAnswer;
      // Only renewals that failed count: a heartbeat delayed on a busy coordinator is not the
      // worker's silence.
      if (member.failingSinceAnswer && silent > LOST_AFTER.toNanos()) {
        lose(member, String.format("no answer for %.1f s (%s)", silent / 1e9, member.lastProblem));
      }
    }
  }

  private void lose(Member member, String reason) {
    String message;
    synchronized (this) {
      if (member.lost != null) {
        return;
      }
      member.lost = reason;
      if (firstLoss != null) {
        return;
      }
      firstLoss = "worker " + member.name() + " was lost mid-run: " + reason;
      message = firstLoss + "; the other workers were stopped";
    }
    onLost.accept(message);
  }

  private synchronized void failIfLost() {
    if (firstLoss != null) {
      throw new WorkerException(firstLoss);
    }
  }

  private List<Member> live() {
    return members.stream().filter(m -> m.lost == null).toList();
  }

  private List<Member> withProducers() {
    return live().stream().filter(m -> producing.contains(m)).toList();
  }

  private List<Member> withConsumers() {
    return live().stream().filter(m -> consuming.contains(m)).toList();
  }

  /** Calls every member at once; the first failure is thrown (bad input as such). */
  private <T> List<T> onEach(List<Member> targets, Function<HttpWorker, T> call) {
    return parallel(targets, member -> call.apply(member.worker));
  }

  private <T> List<T> parallel(List<Member> targets, Function<Member, T> call) {
    List<CompletableFuture<T>> futures = new ArrayList<>();
    for (Member member : targets) {
      futures.add(CompletableFuture.supplyAsync(() -> call.apply(member), calls));
    }
    List<T> results = new ArrayList<>();
    RuntimeException first = null;
    for (int i = 0; i < futures.size(); i++) {
      try {
        results.add(futures.get(i).join());
      } catch (CompletionException e) {
        RuntimeException cause =
            e.getCause() instanceof RuntimeException runtime
                ? runtime
                : new WorkerException(String.valueOf(e.getCause()), e.getCause());
        if (unreachable(cause)) {
          lose(targets.get(i), HttpWorker.describe(cause));
        }
        first = first == null ? cause : first;
      }
    }
    if (first != null) {
      throw first;
    }
    return results;
  }

  /** Like {@link #onEach}, but a worker that fails is left out (and noted lost if unreachable). */
  private <T> List<T> tolerant(List<Member> targets, Function<HttpWorker, T> call) {
    List<CompletableFuture<T>> futures = new ArrayList<>();
    for (Member member : targets) {
      futures.add(CompletableFuture.supplyAsync(() -> call.apply(member.worker), calls));
    }
    List<T> results = new ArrayList<>();
    for (int i = 0; i < futures.size(); i++) {
      try {
        results.add(futures.get(i).join());
      } catch (CompletionException e) {
        lose(targets.get(i), HttpWorker.describe(e.getCause()));
      }
    }
    return results;
  }

  private static boolean unreachable(Throwable error) {
    Throwable cause = error.getCause();
    return cause instanceof IOException || cause instanceof HttpTimeoutException;
  }

  private static Void run(Runnable action) {
    action.run();
    return null;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
