package io.plumb.worker;

import io.plumb.stats.ClockCorrections;
import io.plumb.stats.SequenceRanges;
import io.plumb.stats.StatsCollector;
import io.plumb.stats.SubscriptionRecorder;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A worker's subscriptions, by {@link WorkerSpecs#subscriptionKey subscription key}, each with the
 * index of its recorder in the stats collector, and what their recorders hold.
 */
final class SubscriptionIndex {
  private final Map<String, Integer> recorders = new LinkedHashMap<>();

  /** Adds the subscriptions of {@code specs} not added before to {@code stats}. */
  void addNew(List<ConsumerSpec> specs, StatsCollector stats, ClockCorrections clockCorrections) {
    // All in one step of the stats thread: one question per subscription would cost a thread
    // hand-off each, minutes for a million of them.
    List<String> newTopics = new ArrayList<>();
    List<String> newSubscriptions = new ArrayList<>();
    Set<String> added = new HashSet<>();
    for (ConsumerSpec spec : specs) {
      String key = WorkerSpecs.subscriptionKey(spec.topic(), spec.subscription());
      if (!recorders.containsKey(key) && added.add(key)) {
        newTopics.add(spec.topic());
        newSubscriptions.add(spec.subscription());
      }
    }
    if (!newTopics.isEmpty()) {
      int first;
      try {
        first = stats.addSubscriptions(newTopics, newSubscriptions, clockCorrections);
      } catch (IllegalStateException e) {
        SetupCalls.checkNotInterrupted("creating consumers", 0, specs.size());
        throw e;
      }
      for (int i = 0; i < newTopics.size(); i++) {
        recorders.put(
            WorkerSpecs.subscriptionKey(newTopics.get(i), newSubscriptions.get(i)), first + i);
      }
    }
  }

  /** The index of the recorder of {@code spec}'s subscription, added before. */
  int recorderOf(ConsumerSpec spec) {
    return recorders.get(WorkerSpecs.subscriptionKey(spec.topic(), spec.subscription()));
  }

  /** Probes received so far, by subscription key. */
  Map<String, Long> probes(SubscriptionRecorder[] all) {
    Map<String, Long> probes = new LinkedHashMap<>();
    recorders.forEach((key, index) -> probes.put(key, all[index].probes()));
    return probes;
  }

  /** The sequence numbers received, by subscription key and then producer id. */
  Map<String, Map<Integer, SequenceRanges>> received(SubscriptionRecorder[] all) {
    Map<String, Map<Integer, SequenceRanges>> received = new LinkedHashMap<>();
    recorders.forEach(
        (key, index) -> {
          SubscriptionRecorder recorder = all[index];
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
    return received;
  }
}
