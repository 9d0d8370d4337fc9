package io.plumb.coordinator;

import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.workload.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Names and assignments for one run, derived from the workload: topics, subscriptions, consumers
 * and producers with run-wide producer ids. Topic names carry a random tag so a run never reads
 * another run's messages.
 */
public record RunPlan(
    List<TopicSpec> topics,
    List<ConsumerSpec> consumers,
    List<ProducerSpec> producers,
    Map<String, String> topicOfSubscription,
    double ratePerProducer) {

  public static RunPlan of(Workload workload, String topicPrefix, String runTag) {
    List<TopicSpec> topics = new ArrayList<>();
    List<ConsumerSpec> consumers = new ArrayList<>();
    List<ProducerSpec> producers = new ArrayList<>();
    Map<String, String> topicOfSubscription = new LinkedHashMap<>();
    int producerId = 0;
    for (int t = 0; t < workload.topics(); t++) {
      String topic = topicPrefix + "-" + runTag + "-" + t;
      topics.add(new TopicSpec(topic, workload.partitionsPerTopic()));
      for (int s = 0; s < workload.subscriptionsPerTopic(); s++) {
        // Each topic's own, as OMB names them: a driver that knows a subscription by its name
        // alone (Kafka's group.id) would otherwise make one group spanning every topic.
        String subscription = "sub-" + runTag + "-" + t + "-" + s;
        topicOfSubscription.put(topic + "/" + subscription, topic);
        for (int c = 0; c < workload.consumerPerSubscription(); c++) {
          consumers.add(new ConsumerSpec(topic, subscription));
        }
      }
      for (int p = 0; p < workload.producersPerTopic(); p++) {
        producers.add(new ProducerSpec(producerId++, topic));
      }
    }
    double ratePerProducer = workload.producerRate() / producers.size();
    return new RunPlan(
        List.copyOf(topics),
        List.copyOf(consumers),
        List.copyOf(producers),
        Map.copyOf(topicOfSubscription),
        ratePerProducer);
  }

  /** Every topic's producer ids: one pass over the producers, for loops over subscriptions. */
  public Map<String, List<Integer>> producerIdsByTopic() {
    Map<String, List<Integer>> byTopic = new HashMap<>();
    for (ProducerSpec producer : producers) {
      byTopic
          .computeIfAbsent(producer.topic(), topic -> new ArrayList<>(4))
          .add(producer.producerId());
    }
    return byTopic;
  }

  public List<String> topicNames() {
    return topics.stream().map(TopicSpec::name).toList();
  }
}
