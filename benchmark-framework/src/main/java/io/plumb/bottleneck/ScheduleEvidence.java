package io.plumb.bottleneck;

/**
 * What a run or a search probe measured about the producers' schedule and what held them back: the
 * figures {@link BottleneckVerdict} decides on.
 *
 * @param targetRate messages per second asked of all producers together
 * @param achievedRate messages sent per second over the measured time
 * @param acknowledgedRate messages the broker acknowledged per second over the same time
 * @param lagAtEnd scheduled messages not yet sent when the measured time ended, or -1 when unknown
 * @param sendDelayP50Nanos median of actual minus intended send time
 * @param sendDelayP99Nanos p99 of actual minus intended send time
 * @param threads where the producer threads' time went (CPU, waiting for a core, inside send())
 * @param workerCpuShare the worker JVM's CPU over the measured time, as a share of all the host's
 *     cores (0 to 1), or NaN when not sampled (remote workers)
 * @param stealShare the share of the host's CPU time the hypervisor took (steal), or NaN
 */
public record ScheduleEvidence(
    double targetRate,
    double achievedRate,
    double acknowledgedRate,
    long lagAtEnd,
    long sendDelayP50Nanos,
    long sendDelayP99Nanos,
    ThreadEvidence threads,
    double workerCpuShare,
    double stealShare) {}
