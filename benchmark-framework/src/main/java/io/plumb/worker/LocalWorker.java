package io.plumb.worker;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.LeaderLocator;
import io.plumb.driver.SendListener;
import io.plumb.input.BadInputException;
import io.plumb.input.UnreachableBrokerException;
import io.plumb.input.YamlTree;
import io.plumb.load.LoadGenerator;
import io.plumb.load.ProducerTask;
import io.plumb.load.WorkerClock;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.ProducerThreadTimes;
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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/** A worker inside the coordinator's JVM. */
public final class LocalWorker implements Worker {
  private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(120);

  private final WorkerClock clock;
  private final int threads;
  private ClockCorrections clockCorrections = ClockCorrections.NONE;
  private BenchmarkDriver driver;
  private int runId;
  private final StatsCollector stats = new StatsCollector("plumb-stats");
  private final List<BenchmarkConsumer> consumers = new ArrayList<>();
  private final Map<String, Integer> subscriptions = new LinkedHashMap<>();
  private final List<ProducerTask> producers = new ArrayList<>();
  private int messageSize;
  private LoadGenerator generator;
  private long reportedSent;
  private long reportedNanosInSend;
  private ProducerThreadTimes reportedThreadTimes = ProducerThreadTimes.NONE;
  private FinalReads finalReads;

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
    Path file = Path.of(setup.fileName());
    if (!Files.isRegularFile(file)) {
      // A remote coordinator sends the text: keep a private copy for drivers that want a path.
      try {
        file = Files.createTempFile("plumb-driver-", "-" + file.getFileName());
        Files.writeString(file, setup.yaml());
        file.toFile().deleteOnExit();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    // Parsed once, from the text the coordinator sent: the driver reads these settings.
    YamlTree tree = YamlTree.parse(setup.fileName(), setup.yaml());
    DriverLoader.DriverIdentity identity = DriverLoader.identify(setup.fileName(), tree);
    driver = DriverLoader.instantiate(file, identity.driverClass());
    try {
      driver.initialize(
          new DriverConfig(
              file, DriverSettingsReader.fromTree(setup.fileName(), tree, setup.overrides())));
    } catch (DriverConfigException e) {
      throw new BadInputException(e.getMessage());
    } catch (BrokerUnreachableException e) {
      throw new UnreachableBrokerException(e.getMessage());
    } catch (Exception e) {
      throw new WorkerException(
          "driver " + identity.driverClass() + " failed to initialise: " + e, e);
    }
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
          checkNotInterrupted("creating topics", 0, topics.size());
          futures.add(driver.createTopics(names, partitions));
        });
    awaitAll("creating " + topics.size() + " topics", futures, created -> {});
    return Map.copyOf(driver.brokerFacts());
  }

  @Override
  public void applyClockCorrections(ClockCorrections corrections) {
    this.clockCorrections = corrections;
  }

  @Override
  public void createConsumers(List<ConsumerSpec> specs) {
    // Subscriptions first, all in one step of the stats thread: one question per subscription
    // would cost a thread hand-off each, minutes for a million of them.
    List<String> newTopics = new ArrayList<>();
    List<String> newSubscriptions = new ArrayList<>();
    Set<String> added = new HashSet<>();
    for (ConsumerSpec spec : specs) {
      String key = WorkerSpecs.subscriptionKey(spec.topic(), spec.subscription());
      if (!subscriptions.containsKey(key) && added.add(key)) {
        newTopics.add(spec.topic());
        newSubscriptions.add(spec.subscription());
      }
    }
    if (!newTopics.isEmpty()) {
      int first;
      try {
        first = stats.addSubscriptions(newTopics, newSubscriptions, clockCorrections);
      } catch (IllegalStateException e) {
        checkNotInterrupted("creating consumers", 0, specs.size());
        throw e;
      }
      for (int i = 0; i < newTopics.size(); i++) {
        subscriptions.put(
            WorkerSpecs.subscriptionKey(newTopics.get(i), newSubscriptions.get(i)), first + i);
      }
    }
    List<CompletableFuture<BenchmarkConsumer>> futures = new ArrayList<>();
    for (ConsumerSpec spec : specs) {
      checkNotInterrupted("creating consumers", futures.size(), specs.size(), futures);
      int subscription =
          subscriptions.get(WorkerSpecs.subscriptionKey(spec.topic(), spec.subscription()));
      futures.add(
          driver.createConsumer(
              spec.topic(),
              spec.subscription(),
              new DeliveryListener(subscription, runId, stats, clock)));
    }
    consumers.addAll(
        awaitAll("creating " + specs.size() + " consumers", futures, LocalWorker::closeAbandoned));
  }

  @Override
  public void createProducers(List<ProducerSpec> specs, MessageSpec messages) {
    List<CompletableFuture<BenchmarkProducer>> futures = new ArrayList<>();
    for (ProducerSpec spec : specs) {
      checkNotInterrupted("creating producers", futures.size(), specs.size(), futures);
      futures.add(driver.createProducer(spec.topic()));
    }
    List<BenchmarkProducer> created =
        awaitAll("creating " + specs.size() + " producers", futures, LocalWorker::closeAbandoned);
    messageSize = messages.messageSize();
    int first = producers.size();
    stats.expectProducers(first + specs.size());
    // Shared by every producer: a copy of the pool's array per producer cost 4 KB each (160 MB at
    // 40,000 producers), and a key set of its own about 600 KB each.
    byte[][] bodies = messages.bodies().toArray(new byte[0][]);
    String[] keySet = KeyChooser.keySet(messages.keyDistributor(), runId * 1_000_003L);
    for (int i = 0; i < specs.size(); i++) {
      ProducerSpec spec = specs.get(i);
      KeyChooser keys =
          new KeyChooser(messages.keyDistributor(), keySet, runId * 1_000_003L + spec.producerId());
      producers.add(
          new ProducerTask(
              spec.producerId(), runId, created.get(i), keys, bodies, clock, stats, first + i));
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
    return stats.inspect(
        (publish, recorders) -> {
          Map<String, Long> probes = new LinkedHashMap<>();
          subscriptions.forEach((key, index) -> probes.put(key, recorders[index].probes()));
          return probes;
        });
  }

  @Override
  public void startLoad(LoadSpec load) {
    if (producers.isEmpty()) {
      return;
    }
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
  public PeriodStats takePeriod() {
    PeriodStats.Builder builder = new PeriodStats.Builder();
    // Completions first, sends after: every send completed by now was counted before it reached the
    // driver, so no snapshot holds more acknowledged and failed messages than sent ones.
    stats.takePeriod(builder);
    addSends(builder);
    return builder.build();
  }

  private void addSends(PeriodStats.Builder builder) {
    if (generator != null) {
      long sent = generator.sent();
      long inSend = generator.nanosInSend();
      builder.addSent(
          sent - reportedSent, (sent - reportedSent) * messageSize, inSend - reportedNanosInSend);
      reportedSent = sent;
      reportedNanosInSend = inSend;
      ProducerThreadTimes threads = generator.threadTimes();
      builder.addProducerThreads(threads.since(reportedThreadTimes));
      reportedThreadTimes = threads;
    }
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
  public LastCount lastCount() {
    PeriodStats.Builder builder = new PeriodStats.Builder();
    Totals totals = stats.takePeriodAndInspect(builder, this::totalsOf);
    // Sends after completions, as in takePeriod: never more completed than sent.
    addSends(builder);
    return new LastCount(builder.build(), totals);
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
    Map<String, Map<Integer, SequenceRanges>> received = new LinkedHashMap<>();
    subscriptions.forEach(
        (key, index) -> {
          SubscriptionRecorder recorder = recorders[index];
          Map<Integer, SequenceRanges> byProducer = new LinkedHashMap<>();
          // Every producer heard from, not only this worker's: producers may live elsewhere.
          for (int producer : recorder.producersSeen()) {
            SequenceRanges ranges = recorder.receivedFrom(producer);
            if (ranges.size() > 0) {
              byProducer.put(producer, ranges);
            }
          }
          received.put(key, byProducer);
        });
    // One worker's recorder sees every delivery of its subscriptions: its duplicates are
    // already in its periods.
    return new Totals(
        acked, failed, received, 0, finalReads == null ? Map.of() : finalReads.bySubscription());
  }

  @Override
  public long clockNow() {
    return clock.now();
  }

  @Override
  public Map<String, String> nodeTargets() {
    return driver instanceof LeaderLocator locator ? locator.targets() : Map.of();
  }

  @Override
  public Optional<String> locate(String target, String topic) {
    try {
      return ((LeaderLocator) driver).locate(target, topic);
    } catch (Exception e) {
      throw new WorkerException(
          "asking the broker for the " + target + " of " + topic + ": " + e, e);
    }
  }

  @Override
  public void keepPublishTimeline(long stallNanos) {
    stats.keepTimeline(stallNanos);
  }

  @Override
  public PublishTimeline.Snapshot publishTimeline(
      Map<Integer, List<SequenceRanges>> lostByProducer) {
    PublishTimeline.Snapshot timeline = stats.inspect((publish, recorders) -> publish.timeline());
    for (ProducerTask producer : producers) {
      for (SequenceRanges lost : lostByProducer.getOrDefault(producer.producerId(), List.of())) {
        lost.forEach(sequence -> timeline.addLost(producer.intendedTime(sequence)));
      }
    }
    return timeline;
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
        driver.deleteTopics(topicsToDelete).get(SETUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
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

  /**
   * Stops a creation loop once the coordinator has interrupted the thread (Ctrl-C during set-up),
   * closing whatever the loop created so far.
   */
  private static <T extends AutoCloseable> void checkNotInterrupted(
      String what, int done, int total, List<CompletableFuture<T>> created) {
    if (Thread.currentThread().isInterrupted()) {
      created.forEach(future -> future.thenAccept(LocalWorker::closeAbandoned));
      checkNotInterrupted(what, done, total);
    }
  }

  private static void checkNotInterrupted(String what, int done, int total) {
    if (Thread.currentThread().isInterrupted()) {
      throw new WorkerException(
          String.format("%s was interrupted after %,d of %,d", what, done, total));
    }
  }

  /** Closes a client that a failed or interrupted set-up created but will never use. */
  private static void closeAbandoned(AutoCloseable client) {
    try {
      client.close();
    } catch (Exception e) {
      // Set-up has already failed with its own reason; this client's close adds nothing to it.
    }
  }

  /**
   * Waits for every future and returns their results in order. When one fails, times out or the
   * wait is interrupted, what the others created (now or later) goes to {@code abandon}.
   */
  private static <T> List<T> awaitAll(
      String what, List<CompletableFuture<T>> futures, Consumer<T> abandon) {
    List<T> results = new ArrayList<>();
    long deadline = System.nanoTime() + SETUP_TIMEOUT.toNanos();
    for (CompletableFuture<T> future : futures) {
      try {
        results.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
      } catch (TimeoutException e) {
        abandonAll(results, futures, abandon);
        throw new WorkerException(
            what + " did not finish within " + SETUP_TIMEOUT.toSeconds() + " s", e);
      } catch (ExecutionException e) {
        abandonAll(results, futures, abandon);
        throw new WorkerException(what + " failed: " + e.getCause(), e.getCause());
      } catch (InterruptedException e) {
        abandonAll(results, futures, abandon);
        Thread.currentThread().interrupt();
        throw new WorkerException(
            String.format("%s was interrupted after %,d", what, results.size()), e);
      }
    }
    return results;
  }

  private static <T> void abandonAll(
      List<T> results, List<CompletableFuture<T>> futures, Consumer<T> abandon) {
    results.forEach(abandon);
    for (int i = results.size(); i < futures.size(); i++) {
      futures.get(i).thenAccept(abandon);
    }
  }
}
