package io.plumb.worker;

import io.plumb.resources.ResourceSource;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.PublishTimeline;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A worker that hands every call to another: a test overrides the one call whose moment it needs
 * (to close a server as the final count begins, say) and leaves the rest as the real worker does.
 */
public class ForwardingWorker implements Worker {
  private final Worker delegate;

  public ForwardingWorker(Worker delegate) {
    this.delegate = delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public DriverInfo initializeDriver(DriverSetup setup, int runId) {
    return delegate.initializeDriver(setup, runId);
  }

  @Override
  public OptionalLong maxHeapBytes() {
    return delegate.maxHeapBytes();
  }

  @Override
  public Map<String, ResourceSource> remoteResources() {
    return delegate.remoteResources();
  }

  @Override
  public Map<String, String> createTopics(List<TopicSpec> topics) {
    return delegate.createTopics(topics);
  }

  @Override
  public void applyClockCorrections(ClockCorrections corrections) {
    delegate.applyClockCorrections(corrections);
  }

  @Override
  public Map<String, String> createConsumers(List<ConsumerSpec> consumers) {
    return delegate.createConsumers(consumers);
  }

  @Override
  public void createProducers(List<ProducerSpec> producers, MessageSpec messages) {
    delegate.createProducers(producers, messages);
  }

  @Override
  public void sendProbes() {
    delegate.sendProbes();
  }

  @Override
  public Map<String, Long> probesReceived() {
    return delegate.probesReceived();
  }

  @Override
  public void startLoad(LoadSpec load) {
    delegate.startLoad(load);
  }

  @Override
  public void adjustRate(double ratePerProducer) {
    delegate.adjustRate(ratePerProducer);
  }

  @Override
  public void pauseConsumers() {
    delegate.pauseConsumers();
  }

  @Override
  public void resumeConsumers() {
    delegate.resumeConsumers();
  }

  @Override
  public void startMeasuring() {
    delegate.startMeasuring();
  }

  @Override
  public PeriodStats takePeriod() {
    return delegate.takePeriod();
  }

  @Override
  public long scheduleLag() {
    return delegate.scheduleLag();
  }

  @Override
  public void stopLoad() {
    delegate.stopLoad();
  }

  @Override
  public Totals totals() {
    return delegate.totals();
  }

  @Override
  public LastCount lastCount() {
    return delegate.lastCount();
  }

  @Override
  public List<String> firstErrors() {
    return delegate.firstErrors();
  }

  @Override
  public void closeClients(List<String> topicsToDelete) {
    delegate.closeClients(topicsToDelete);
  }

  @Override
  public Optional<String> whyNoFinalRead() {
    return delegate.whyNoFinalRead();
  }

  @Override
  public FinalReads.Summary finalRead(List<ConsumerSpec> subscriptions, Duration timeout) {
    return delegate.finalRead(subscriptions, timeout);
  }

  @Override
  public long clockNow() {
    return delegate.clockNow();
  }

  @Override
  public Map<String, String> nodeTargets() {
    return delegate.nodeTargets();
  }

  @Override
  public Optional<String> locate(String target, String topic) {
    return delegate.locate(target, topic);
  }

  @Override
  public void keepPublishTimeline(long stallNanos) {
    delegate.keepPublishTimeline(stallNanos);
  }

  @Override
  public PublishTimeline.Snapshot publishTimeline(
      Map<Integer, List<SequenceRanges>> lostByProducer) {
    return delegate.publishTimeline(lostByProducer);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
