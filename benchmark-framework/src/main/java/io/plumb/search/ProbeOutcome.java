package io.plumb.search;

import io.plumb.bottleneck.ThreadEvidence;
import java.util.List;

/**
 * What one fixed-rate probe measured, reduced to what the search judges.
 *
 * @param targetRate messages per second asked of all producers together
 * @param seconds length of the probe's measured part
 * @param publishRate messages sent per second
 * @param acknowledgeRate messages acknowledged per second
 * @param consumeRate messages received per second, summed over subscriptions
 * @param subscriptions subscriptions per topic (0 for producer-only workloads)
 * @param unacknowledgedSlope how fast sent-but-unacknowledged messages grew, per second
 * @param backlogSlope how fast the backlog (sent but not received by all) grew, per second
 * @param backlogAtEnd the backlog when the probe's measured part ended
 * @param scheduleLagAtEnd scheduled messages not yet sent when it ended
 * @param sendDelayP50Nanos median of actual minus intended send time
 * @param sendDelayP99Nanos p99 of actual minus intended send time
 * @param latencyNanos the value the latency target asks about, or -1 when there is none
 * @param failedSends sends the broker refused or that errored
 * @param consumerErrors errors consumers reported
 * @param undelivered acknowledged messages some subscription had not received when the drain ended:
 *     lost, or still in flight (the result's {@code lost} plus {@code inFlight})
 * @param producerThreads where the producer threads' time went (CPU, waiting for a core, send())
 * @param generatorBoundReasons the run's own generator verdict
 * @param incompleteReason why the probe's run stopped early, or null
 * @param resultTimeSeconds wall time the probe took, set-up and teardown included
 * @param workerCpuShare the worker JVM's CPU as a share of the host's cores, or NaN
 * @param stealShare the host's CPU time taken by the hypervisor, or NaN
 * @param latencySpread p99 - p50 of publish and end-to-end latency, how far in-flight counts swing
 */
public record ProbeOutcome(
    double targetRate,
    double seconds,
    double publishRate,
    double acknowledgeRate,
    double consumeRate,
    int subscriptions,
    double unacknowledgedSlope,
    double backlogSlope,
    long backlogAtEnd,
    long scheduleLagAtEnd,
    long sendDelayP50Nanos,
    long sendDelayP99Nanos,
    long latencyNanos,
    long failedSends,
    long consumerErrors,
    long undelivered,
    ThreadEvidence producerThreads,
    List<String> generatorBoundReasons,
    String incompleteReason,
    double resultTimeSeconds,
    double workerCpuShare,
    double stealShare,
    LatencySpread latencySpread) {

  /** The same probe with its latencies spread by {@code spread}. */
  public ProbeOutcome withLatencySpread(LatencySpread spread) {
    return new ProbeOutcome(
        targetRate,
        seconds,
        publishRate,
        acknowledgeRate,
        consumeRate,
        subscriptions,
        unacknowledgedSlope,
        backlogSlope,
        backlogAtEnd,
        scheduleLagAtEnd,
        sendDelayP50Nanos,
        sendDelayP99Nanos,
        latencyNanos,
        failedSends,
        consumerErrors,
        undelivered,
        producerThreads,
        generatorBoundReasons,
        incompleteReason,
        resultTimeSeconds,
        workerCpuShare,
        stealShare,
        spread);
  }
}
