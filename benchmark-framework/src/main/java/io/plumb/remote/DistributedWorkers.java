package io.plumb.remote;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.resources.ResourceSource;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.LastCount;
import io.plumb.worker.TotalsMissingException;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Several remote workers acting as one: producers and consumers are dealt out by {@link
 * WorkerRoles}, and every call of a run goes to the workers it concerns at once. The parts live in
 * classes of their own: {@link WorkerSession} reaches the workers and measures their clocks, {@link
 * LeaseKeeper} renews their leases and notices a lost one, {@link WorkerFleet} makes the calls and
 * tracks losses, {@link Harvest} merges what they measured.
 *
 * <p>Every producer keeps the workload's per-producer rate, so the total is the workload's rate
 * however producers fall on workers (a worker with no producer simply sends nothing).
 */
public final class DistributedWorkers implements Worker {
  static final Duration LOST_AFTER = Duration.ofSeconds(6);
  private static final Duration MIN_START_DELAY = Duration.ofMillis(300);
  private static final String LOOPBACK_DRIVER = "io.plumb.loopback.LoopbackDriver";

  private final WorkerFleet fleet;
  private final List<RemoteMember> producing;
  private final List<RemoteMember> consuming;
  private final WorkerRoles roles;
  private final LeaseKeeper leases;
  private final Harvest harvest;
  private final ClockWatch clockWatch;
  private final AtomicBoolean closed = new AtomicBoolean();
  private boolean topicsPerWorker;

  private DistributedWorkers(List<RemoteMember> members, WorkerRoles roles) {
    this.fleet = new WorkerFleet(members);
    this.roles = members.size() == 1 ? WorkerRoles.BOTH : roles;
    if (this.roles == WorkerRoles.SPLIT) {
      producing = members.subList(0, members.size() / 2);
      consuming = members.subList(members.size() / 2, members.size());
    } else {
      producing = members;
      consuming = members;
    }
    this.leases = new LeaseKeeper(fleet, LOST_AFTER);
    this.harvest = new Harvest(fleet);
    this.clockWatch = new ClockWatch(fleet::live);
  }

  /** Reaches every worker and measures its clock; an unreachable worker is named within seconds. */
  public static DistributedWorkers connect(List<HttpWorker> workers, WorkerRoles roles) {
    DistributedWorkers ensemble = new DistributedWorkers(WorkerSession.open(workers), roles);
    ensemble.leases.start();
    return ensemble;
  }

  /** Who to tell when a worker is lost mid-run (the run aborts with this reason). */
  public void onWorkerLost(Consumer<String> listener) {
    fleet.onLost(listener);
  }

  @Override
  public String name() {
    return fleet.all().size() + " remote workers";
  }

  @Override
  public DriverInfo initializeDriver(DriverSetup setup, int runId) {
    List<DriverInfo> infos = fleet.onEach(fleet.all(), w -> w.initializeDriver(setup, runId));
    DriverInfo info = infos.get(0);
    // The loopback driver is a "broker" inside each worker's JVM: every worker needs the topics.
    topicsPerWorker = info.driverClass().equals(LOOPBACK_DRIVER);
    return info;
  }

  @Override
  public Map<String, ResourceSource> remoteResources() {
    Map<String, ResourceSource> sources = new LinkedHashMap<>();
    for (RemoteMember member : fleet.all()) {
      sources.put(member.name(), member.worker::resources);
    }
    return sources;
  }

  @Override
  public Map<String, String> createTopics(List<TopicSpec> topics) {
    List<RemoteMember> creators = topicsPerWorker ? fleet.all() : fleet.all().subList(0, 1);
    return fleet.onEach(creators, w -> w.createTopics(topics)).get(0);
  }

  @Override
  public Map<String, String> createConsumers(List<ConsumerSpec> consumers) {
    // Measure again now the JVMs are warm, keeping the tighter result, before offsets are used.
    clockWatch.measureNow();
    Map<RemoteMember, List<ConsumerSpec>> shares = new LinkedHashMap<>();
    for (int i = 0; i < consumers.size(); i++) {
      shares
          .computeIfAbsent(consuming.get(i % consuming.size()), m -> new ArrayList<>())
          .add(consumers.get(i));
    }
    List<Map<String, String>> factsByMember =
        fleet.parallel(
            List.copyOf(shares.keySet()),
            member -> {
              member.worker.applyClockCorrections(correctionsFor(member));
              Map<String, String> facts = member.worker.createConsumers(shares.get(member));
              member.consumers = shares.get(member).size();
              return facts;
            });
    clockWatch.offsetsInUse();
    // Each member's driver knows the queues its own consumers declared: the first one's facts, as
    // for the topics, with any the others add.
    Map<String, String> merged = new LinkedHashMap<>();
    for (int i = factsByMember.size() - 1; i >= 0; i--) {
      merged.putAll(factsByMember.get(i));
    }
    return Map.copyOf(merged);
  }

  /**
   * For each producing worker, in the order producers are dealt, its clock minus {@code
   * consumer}'s: added to the consumer's receive times, it puts them on the producer's clock.
   */
  private ClockCorrections correctionsFor(RemoteMember consumer) {
    List<Long> slots = new ArrayList<>();
    for (RemoteMember producer : producing) {
      slots.add(producer.clock.offsetNanos() - consumer.clock.offsetNanos());
    }
    return ClockCorrections.bySlot(slots);
  }

  @Override
  public void createProducers(List<ProducerSpec> producers, MessageSpec messages) {
    Map<RemoteMember, List<ProducerSpec>> shares = new LinkedHashMap<>();
    for (ProducerSpec producer : producers) {
      RemoteMember member =
          producing.get(ClockCorrections.slotOf(producer.producerId(), producing.size()));
      shares.computeIfAbsent(member, m -> new ArrayList<>()).add(producer);
    }
    fleet.parallel(
        List.copyOf(shares.keySet()),
        member -> {
          member.worker.createProducers(shares.get(member), messages);
          member.producers = shares.get(member).size();
          return null;
        });
  }

  @Override
  public void sendProbes() {
    fleet.onEach(withProducers(), w -> run(w::sendProbes));
  }

  @Override
  public Map<String, Long> probesReceived() {
    Map<String, Long> merged = new LinkedHashMap<>();
    for (Map<String, Long> probes : fleet.onEach(withConsumers(), Worker::probesReceived)) {
      probes.forEach((key, count) -> merged.merge(key, count, Long::sum));
    }
    return merged;
  }

  @Override
  public void startLoad(LoadSpec load) {
    // Every producing worker gets the same relative start; the delay covers the calls' spread.
    long delay = Math.max(load.startDelayNanos(), MIN_START_DELAY.toNanos());
    long firstDue = System.nanoTime() + delay;
    fleet.onEach(
        withProducers(),
        w -> run(() -> w.startLoad(new LoadSpec(load.ratePerProducer(), delay, load.pacing()))));
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
    fleet.onEach(withProducers(), w -> run(() -> w.adjustRate(ratePerProducer)));
  }

  @Override
  public void pauseConsumers() {
    fleet.onEach(withConsumers(), w -> run(w::pauseConsumers));
  }

  @Override
  public void resumeConsumers() {
    fleet.onEach(withConsumers(), w -> run(w::resumeConsumers));
  }

  /** The breakdown covers what the result's latencies cover: from here on, warm-up left out. */
  @Override
  public void startMeasuring() {
    harvest.startMeasuring();
  }

  @Override
  public PeriodStats takePeriod() {
    PeriodStats period = harvest.takePeriod();
    clockWatch.periodTaken();
    return period;
  }

  @Override
  public long scheduleLag() {
    long lag = 0;
    for (long value : fleet.tolerant(withProducers(), Worker::scheduleLag)) {
      lag += value;
    }
    return lag;
  }

  @Override
  public void stopLoad() {
    fleet.tolerant(withProducers(), w -> run(w::stopLoad));
    // After the load: a clock that drifted during the run shows against the offsets in use.
    clockWatch.measureNow();
  }

  /**
   * How far off end-to-end latency across hosts can be from the clock offsets alone: the largest
   * sum of a producing and a consuming worker's offset uncertainties, over pairs of different
   * workers; empty when no message crosses workers.
   */
  public OptionalLong endToEndClockUncertaintyNanos() {
    long worst = -1;
    for (RemoteMember producer : producing) {
      for (RemoteMember consumer : consuming) {
        if (producer != consumer) {
          worst =
              Math.max(
                  worst, producer.clock.uncertaintyNanos() + consumer.clock.uncertaintyNanos());
        }
      }
    }
    return worst < 0 ? OptionalLong.empty() : OptionalLong.of(worst);
  }

  @Override
  public Totals totals() {
    return harvest.totals();
  }

  /**
   * The default's order (period, then sets), but a worker whose sets are missing fails the count
   * with the period kept: it already holds the surviving workers' last deliveries.
   */
  @Override
  public LastCount lastCount() {
    PeriodStats period = takePeriod();
    try {
      return new LastCount(period, harvest.totals());
    } catch (WorkerException e) {
      throw new TotalsMissingException(e.getMessage(), period, e);
    }
  }

  @Override
  public List<String> firstErrors() {
    List<String> errors = new ArrayList<>();
    for (RemoteMember member : fleet.all()) {
      if (member.lost != null) {
        errors.add("worker " + member.name() + " lost: " + member.lost);
      }
    }
    List<RemoteMember> live = fleet.live();
    List<List<String>> each = fleet.tolerant(live, Worker::firstErrors);
    for (int i = 0; i < each.size(); i++) {
      for (String error : each.get(i)) {
        errors.add("worker " + live.get(i).name() + ": " + error);
      }
    }
    return errors;
  }

  @Override
  public void closeClients(List<String> topicsToDelete) {
    List<RemoteMember> live = fleet.live();
    if (live.isEmpty()) {
      return;
    }
    if (topicsPerWorker) {
      fleet.onEach(live, w -> run(() -> w.closeClients(topicsToDelete)));
      return;
    }
    // Everyone closes their clients before one worker deletes the topics they used.
    fleet.onEach(live.subList(1, live.size()), w -> run(() -> w.closeClients(List.of())));
    live.get(0).worker.closeClients(topicsToDelete);
  }

  /** Once: the run's teardown closes the ensemble, and a caller's own close must not fail. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    leases.stop();
    clockWatch.close();
    // Ends a measurement under way, whose thread clockWatch.close() cannot interrupt in a read.
    fleet.all().forEach(member -> member.clockProbe.close());
    try {
      fleet.onEach(fleet.live(), w -> run(w::close));
    } finally {
      fleet.shutdown();
    }
  }

  /**
   * Each worker's role, clock offset and share of the measured phase and the drain after it, like
   * the result's latencies (warm-up left out).
   */
  public ObjectNode breakdown() {
    ObjectNode node = WorkerBreakdown.of(roles, fleet.all());
    endToEndClockUncertaintyNanos()
        .ifPresent(nanos -> node.put("endToEndClockUncertaintyMillis", nanos / 1e6));
    return node;
  }

  private List<RemoteMember> withProducers() {
    return fleet.live().stream().filter(producing::contains).toList();
  }

  private List<RemoteMember> withConsumers() {
    return fleet.live().stream().filter(consuming::contains).toList();
  }

  private static Void run(Runnable action) {
    action.run();
    return null;
  }
}
