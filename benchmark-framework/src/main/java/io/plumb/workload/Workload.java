package io.plumb.workload;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * One workload, validated. Field names and meanings are OpenMessaging Benchmark's, so its workload
 * files run unchanged; durations are kept as {@link Duration} because Plumb also accepts seconds.
 *
 * @param producerRate messages per second summed over all producers; 0 asks for a peak search
 */
public record Workload(
    String name,
    Path file,
    int topics,
    int partitionsPerTopic,
    KeyDistributorType keyDistributor,
    int messageSize,
    Optional<Path> payloadFile,
    boolean useRandomizedPayloads,
    double randomBytesRatio,
    int randomizedPayloadPoolSize,
    int subscriptionsPerTopic,
    int producersPerTopic,
    int consumerPerSubscription,
    double producerRate,
    double consumerBacklogSizeGB,
    double backlogDrainRatio,
    Duration testDuration,
    Duration warmupDuration) {

  public int totalProducers() {
    return topics * producersPerTopic;
  }

  public int totalConsumers() {
    return topics * subscriptionsPerTopic * consumerPerSubscription;
  }
}
