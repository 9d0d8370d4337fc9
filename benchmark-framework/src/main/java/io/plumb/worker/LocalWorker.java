package io.plumb.worker;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import io.plumb.input.BadInputException;
import io.plumb.load.LoadGenerator;
import io.plumb.load.ProducerTask;
import io.plumb.load.WorkerClock;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.PublishRecorder;
import io.plumb.stats.PublishTimeline;
import io.plumb.stats.SequenceRanges;
import io.plumb.stats.StatsCollector;
import io.plumb.stats.SubscriptionRecorder;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import io.plumb.workload.KeyChooser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A worker inside the coordinator's JVM. */
public final class LocalWorker implements Worker {
  private final WorkerClock clock;
  private final int threads;
  private ClockCorrections clockCorrections = ClockCorrections.NONE;
  private BenchmarkDriver driver;
  private int runId;
  private final StatsCollector stats = new StatsCollector("plumb-stats");
  // Filled on the collector's thread; each period's successor reuses its histograms (800 KB).
  private PeriodStats.Builder period = new PeriodStats.Builder();
  private final List<BenchmarkConsumer> consumers = new ArrayList<>();
  private final SubscriptionIndex subscriptions = new SubscriptionIndex();
  private final List<ProducerTask> producers = new ArrayList<>();
  private int messageSize;
  private LoadGenerator generator;
  private final SendTally sends = new SendTally();
  private FinalReads finalReads;
  private final FaultPlanAnswers faultPlan;

  /** Producers up to this index are closed. */
  private int producersClosed;

  /**
   * @param threads producer threads to use (one per core is right for most hosts)
   */
  public LocalWorker(int threads) {
    this(threads, new WorkerClock());
  }

  /**
   * @param clock stamps every send and receive; a remote worker reports its readings to the
   *     coordinator, which measures its offset
   */
  public LocalWorker(int threads, WorkerClock clock) {
    this.threads = Math.max(1, threads);
    this.clock = clock;
    this.faultPlan = new FaultPlanAnswers(clock, stats, producers, () -> driver);
  }

  public LocalWorker() {
    this(Runtime.getRuntime().availableProcessors());
  }

  @Override
  public String name() {
    return "local";
  }

  @Override
  public DriverInfo initializeDriver(DriverSetup setup, int runId) {
    this.runId = runId;
    DriverStartup startup = DriverStartup.of(setup);
    driver = DriverLoader.instantiate(startup.file(), startup.identity().driverClass());
    startup.initialize(driver);
    return new DriverInfo(
        driver.getClass().getName(), driver.topicNamePrefix(), Map.copyOf(driver.brokerFacts()));
  }

  @Override
  public OptionalLong maxHeapBytes() {
    return OptionalLong.of(Runtime.getRuntime().maxMemory());
  }

  @Override
  public Map<String, String> createTopics(List<TopicSpec> topics) {
    // One driver call per partition count (a run has one): the driver batches as its broker allows.
    Map<Integer, List<String>> byPartitions = new LinkedHashMap<>();
    for (TopicSpec topic : topics) {
      byPartitions.computeIfAbsent(topic.partitions(), p -> new ArrayList<>()).add(topic.name());
    }
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    byPartitions.forEach(
        (partitions, names) -> {
          SetupCalls.checkNotInterrupted("creating topics", 0, topics.size());
          futures.add(driver.createTopics(names, partitions));
        });
    SetupCalls.awaitAll("creating " + topics.size() + " topics", futures, created -> {});
    return Map.copyOf(driver.brokerFacts());
  }

  @Override
  public void applyClockCorrections(ClockCorrections corrections) {
    this.clockCorrections = corrections;
  }

  @Override
  public Map<String, String> createConsumers(List<ConsumerSpec> specs) {
    // Subscriptions first: each consumer's listener reports to its subscription's recorder.
    subscriptions.addNew(specs, stats, clockCorrections);
    consumers.addAll(
        SetupCalls.createEach(
            "consumers",
            specs,
            spec ->
                driver.createConsumer(
                    spec.topic(),
                    spec.subscription(),
                    new DeliveryListener(subscriptions.recorderOf(spec), runId, stats, clock))));
    return Map.copyOf(driver.brokerFacts());
  }

  @Override
  public void createProducers(List<ProducerSpec> specs, MessageSpec messages) {
    List<BenchmarkProducer> created =
        SetupCalls.createEach("producers", specs, spec -> driver.createProducer(spec.topic()));
    messageSize = messages.messageSize();
    int first = producers.size();
    stats.expectProducers(first + specs.size());
    // Shared by every producer: a copy of the pool's array per producer cost 4 KB each (160 MB at
    // 40,000 producers), and a key set of its own about 600 KB each.
    byte[][] bodies = messages.bodies().toArray(new byte[0][]);
    String[] keySet = KeyChooser.keySet(messages.keyDistributor(), runId * 1_000_003L);
    ProducerTask.Shared shared =
        new ProducerTask.Shared(runId, bodies, messages.headerInMetadata(), clock, stats);
    for (int i = 0; i < specs.size(); i++) {
      ProducerSpec spec = specs.get(i);
      KeyChooser keys =
          new KeyChooser(messages.keyDistributor(), keySet, runId * 1_000_003L + spec.producerId());
      producers.add(new ProducerTask(spec.producerId(), created.get(i), keys, first + i, shared));
    }
    stats.nameProducers(
        first,
        specs.stream().map(ProducerSpec::topic).toList(),
        specs.stream().mapToInt(ProducerSpec::producerId).toArray());
  }

  @Override
  public void sendProbes() {
    // One buffer for every probe: a million producers' probes would be a GB of garbage a round.
    byte[] buffer = producers.isEmpty() ? null : producers.get(0).probeBuffer();
    SendListener ignore = (token, failure) -> {};
    for (ProducerTask producer : producers) {
      producer.sendProbe(ignore, buffer);
    }
  }

  @Override
  public Map<String, Long> probesReceived() {
    return stats.inspect((publish, recorders) -> subscriptions.probes(recorders));
  }

  @Override
  public void startLoad(LoadSpec load) {
    if (producers.isEmpty()) {
      return;
    }
    // Everything set up so far (drivers' clients, recorders, payloads) lives for the whole run.
    // Left in the young generation, it is copied by the run's first collections, which paused the
    // JVM 9 to 14 ms in the measured phase on a 2-core host. Collected now, before the schedule
    // starts, it costs a pause no measurement sees. -XX:+DisableExplicitGC skips it.
    System.gc();
    generator =
        new LoadGenerator(
            producers,
            load.ratePerProducer(),
            clock.now() + load.startDelayNanos(),
            threads,
            load.pacing(),
            clock,
            stats);
    generator.start();
  }

  @Override
  public void adjustRate(double ratePerProducer) {
    if (!(ratePerProducer > 0) || Double.isInfinite(ratePerProducer)) {
      throw new BadInputException(
          "rate per producer must be a positive number of messages per second, not "
              + ratePerProducer);
    }
    if (generator != null) {
      generator.adjustRate(ratePerProducer);
    }
  }

  @Override
  public void pauseConsumers() {
    consumers.forEach(BenchmarkConsumer::pause);
  }

  @Override
  public void resumeConsumers() {
    consumers.forEach(BenchmarkConsumer::resume);
  }

  @Override
  public synchronized PeriodStats takePeriod() {
    // Completions first, sends after: every send completed by now was counted before it reached the
    // driver, so no snapshot holds more acknowledged and failed messages than sent ones.
    stats.takePeriod(period);
    sends.addTo(period, generator, messageSize);
    return taken();
  }

  /** The period built so far, with an empty builder for the next. */
  private PeriodStats taken() {
    PeriodStats taken = period.build();
    period = period.next();
    return taken;
  }

  @Override
  public long scheduleLag() {
    return generator == null ? 0 : generator.lagBy(clock.now());
  }

  @Override
  public void stopLoad() {
    if (generator != null) {
      try {
        generator.stop();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public Totals totals() {
    return stats.inspect(this::totalsOf);
  }

  @Override
  public synchronized LastCount lastCount() {
    Totals totals = stats.takePeriodAndInspect(period, this::totalsOf);
    // Sends after completions, as in takePeriod: never more completed than sent.
    sends.addTo(period, generator, messageSize);
    return new LastCount(taken(), totals);
  }

  private Totals totalsOf(PublishRecorder publish, SubscriptionRecorder[] recorders) {
    Map<Integer, SequenceRanges> acked = new LinkedHashMap<>();
    Map<Integer, SequenceRanges> failed = new LinkedHashMap<>();
    for (int i = 0; i < producers.size(); i++) {
      acked.put(producers.get(i).producerId(), publish.ackedSequences(i));
      SequenceRanges failures = publish.failedSequences(i);
      if (failures.size() > 0) {
        failed.put(producers.get(i).producerId(), failures);
      }
    }
    // One worker's recorder sees every delivery of its subscriptions: its duplicates are
    // already in its periods.
    return new Totals(
        acked,
        failed,
        subscriptions.received(recorders),
        0,
        finalReads == null ? Map.of() : finalReads.bySubscription());
  }

  // The fault plan's questions are answered apart: they are not the worker's own job.

  @Override
  public long clockNow() {
    return faultPlan.clockNow();
  }

  @Override
  public Map<String, String> nodeTargets() {
    return faultPlan.nodeTargets();
  }

  @Override
  public Optional<String> locate(String target, String topic) {
    return faultPlan.locate(target, topic);
  }

  @Override
  public void keepPublishTimeline(long stallNanos) {
    faultPlan.keepPublishTimeline(stallNanos);
  }

  @Override
  public PublishTimeline.Snapshot publishTimeline(
      Map<Integer, List<SequenceRanges>> lostByProducer) {
    return faultPlan.publishTimeline(lostByProducer);
  }

  @Override
  public Optional<String> whyNoFinalRead() {
    return FinalReads.whyNot(driver);
  }

  @Override
  public FinalReads.Summary finalRead(List<ConsumerSpec> subscriptions, Duration timeout) {
    finalReads = FinalReads.read(driver, runId, subscriptions, timeout);
    return finalReads.summary();
  }

  @Override
  public List<String> firstErrors() {
    List<String> errors = new ArrayList<>();
    if (stats.firstSendFailure() != null) {
      errors.add("send failed: " + stats.firstSendFailure());
    }
    if (stats.firstConsumerError() != null) {
      errors.add("consumer error: " + stats.firstConsumerError());
    }
    return errors;
  }

  @Override
  public void closeClients(List<String> topicsToDelete) {
    stopLoad();
    List<Exception> problems = new ArrayList<>();
    // The tasks stay: the totals, counted after the final read, name producers by them.
    for (int i = producersClosed; i < producers.size(); i++) {
      closeQuietly(producers.get(i).producer(), problems);
    }
    producersClosed = producers.size();
    for (BenchmarkConsumer consumer : consumers) {
      closeQuietly(consumer, problems);
    }
    consumers.clear();
    if (driver != null && !topicsToDelete.isEmpty()) {
      try {
        driver.deleteTopics(topicsToDelete).get(SetupCalls.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (Exception e) {
        problems.add(e);
      }
    }
    if (!problems.isEmpty()) {
      throw new WorkerException("closing clients: " + problems.get(0), problems.get(0));
    }
  }

  @Override
  public void close() {
    try {
      if (driver != null) {
        driver.close();
      }
    } catch (Exception e) {
      throw new WorkerException("closing driver: " + e, e);
    } finally {
      driver = null;
      stats.close();
    }
  }

  private static void closeQuietly(AutoCloseable closeable, List<Exception> problems) {
    try {
      closeable.close();
    } catch (Exception e) {
      problems.add(e);
    }
  }
}
