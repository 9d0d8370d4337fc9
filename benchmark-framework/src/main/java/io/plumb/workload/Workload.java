package io.plumb.workload;

import io.plumb.message.HeaderPlacement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * One workload, validated. Field names and meanings are OpenMessaging Benchmark's, so its workload
 * files run unchanged; durations are kept as {@link Duration} because Plumb also accepts seconds.
 *
 * @param producerRate messages per second summed over all producers; 0 asks for a peak search
 * @param consumerBacklogSizeGB when above 0, consumers pause until producers have built a backlog
 *     this large (GiB, summed over subscriptions), then drain it
 * @param backlogDrainRatio OMB's meaning: the share of that backlog the consumers must drain (1
 *     drains it completely, 0 does not wait for any drain)
 * @param consumerOnly after the backlog is built, producers stop and the measured phase is the
 *     consumers draining it (the name used by Confluent's OMB fork)
 * @param headerIn where Plumb's header travels (Plumb's field): empty leaves it to the message
 *     size, the payload when {@code messageSize} holds it and the broker's per-message metadata
 *     when it is smaller (see {@link HeaderPlacement#forSize})
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
    Duration warmupDuration,
    boolean consumerOnly,
    Optional<HeaderPlacement> headerIn) {

  /** The same workload at another rate and with other phase lengths (search probes, sweeps). */
  public Workload at(double rate, Duration warmup, Duration test) {
    return new Workload(
        name,
        file,
        topics,
        partitionsPerTopic,
        keyDistributor,
        messageSize,
        payloadFile,
        useRandomizedPayloads,
        randomBytesRatio,
        randomizedPayloadPoolSize,
        subscriptionsPerTopic,
        producersPerTopic,
        consumerPerSubscription,
        rate,
        consumerBacklogSizeGB,
        backlogDrainRatio,
        test,
        warmup,
        consumerOnly,
        headerIn);
  }

  /** Messages the backlog target amounts to, summed over every subscription. */
  public long backlogMessages() {
    return (long) Math.ceil(consumerBacklogSizeGB * 1024 * 1024 * 1024 / messageSize);
  }

  public int totalProducers() {
    return topics * producersPerTopic;
  }

  public int totalConsumers() {
    return topics * subscriptionsPerTopic * consumerPerSubscription;
  }
}
