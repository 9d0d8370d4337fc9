package io.plumb.fault;

import java.util.List;

/**
 * How long partitions and producers went without acknowledging what they were sent, around one
 * fault, from actual send times (the generator's own lateness is never counted). A window starts at
 * the actual send of a message to a partition (producer) and ends at the first acknowledgement that
 * partition (producer) gave after it; a failed send ends nothing. Lengths are in seconds.
 *
 * @param worstPartitionSeconds the longest such window of any partition that the fault's own sends
 *     opened (sent from one usual service time before it until one before the next fault, or the
 *     end); null when nothing was sent
 * @param worstPartition which partition, as {@code topic/partition}
 * @param partitionsAffected partitions with a window in the span longer than {@code
 *     affectedAboveSeconds}
 * @param partitionsAvailableAgain false when the worst partition's window was still open at the end
 * @param affectedAboveSeconds the slowest publish service time seen in the measured phase before
 *     the first fault (never below the resolution): a longer window is more than the broker's usual
 *     slowness
 * @param worstProducerSeconds the same window per producer (any partition's acknowledgement ends
 *     it; failed sends whose partition is unknown count here)
 * @param worstProducer which producer, by id
 * @param producerAvailableAgain false when the worst producer's window was still open at the end
 * @param resolutionSeconds the slice width windows are measured at: a window may be short by less
 *     than this, and windows shorter than it are not seen
 * @param goodput acknowledged messages per second around the fault
 */
public record Unavailability(
    Double worstPartitionSeconds,
    String worstPartition,
    int partitionsAffected,
    boolean partitionsAvailableAgain,
    Double affectedAboveSeconds,
    Double worstProducerSeconds,
    String worstProducer,
    boolean producerAvailableAgain,
    double resolutionSeconds,
    Goodput goodput) {

  /**
   * The fault's headline unavailability: the longest window of any partition or any producer that
   * is longer than {@code affectedAboveSeconds}, or null when none is. The producer's window counts
   * too because a failed send whose partition the client never named (Pulsar's timeouts, for one)
   * starts no partition's window: a producer whose every send failed for 30 s while its one
   * partition's own window was 5 s long was unavailable for 30 s.
   */
  public Double headlineSeconds() {
    Double partition = partitionsAffected > 0 ? worstPartitionSeconds : null;
    Double producer =
        worstProducerSeconds != null
                && (affectedAboveSeconds == null || worstProducerSeconds > affectedAboveSeconds)
            ? worstProducerSeconds
            : null;
    if (partition == null || producer == null) {
      return partition != null ? partition : producer;
    }
    return Math.max(partition, producer);
  }

  /**
   * False when a window the headline counts (the worst partition's or the worst producer's, beyond
   * {@code affectedAboveSeconds}) was still open at the end. The worst partition's alone said
   * available again of a producer whose every send failed to the end before a partition was named
   * (a driver that names none, Pulsar's send timeouts): that producer's window is the headline.
   */
  public boolean availableAgain() {
    boolean partitionOpen = partitionsAffected > 0 && !partitionsAvailableAgain;
    boolean producerOpen =
        !producerAvailableAgain
            && worstProducerSeconds != null
            && (affectedAboveSeconds == null || worstProducerSeconds > affectedAboveSeconds);
    return !partitionOpen && !producerOpen;
  }

  /** Whether anything was measured: a partition or a producer was sent to in the span. */
  public boolean measured() {
    return worstPartitionSeconds != null || worstProducerSeconds != null;
  }

  /**
   * Acknowledged msg/s per slice of completion time.
   *
   * @param fromSeconds the start of the first slice, seconds from the start of the measured phase
   * @param sliceSeconds the width of each slice
   * @param acknowledgedPerSecond one rate per slice, in order
   */
  public record Goodput(
      double fromSeconds, double sliceSeconds, List<Double> acknowledgedPerSecond) {
    public Goodput {
      acknowledgedPerSecond = List.copyOf(acknowledgedPerSecond);
    }
  }
}
