package io.plumb.worker;

import io.plumb.load.Pacing;
import io.plumb.stats.SequenceRanges;
import io.plumb.workload.KeyDistributorType;
import java.util.List;
import java.util.Map;

/**
 * The value types the coordinator sends to workers; all are plain data, ready to travel as JSON.
 */
public final class WorkerSpecs {
  private WorkerSpecs() {}

  /** The driver file (its text, so a remote worker needs no copy) and command-line overrides. */
  public record DriverSetup(String fileName, String yaml, Map<String, String> overrides) {}

  public record TopicSpec(String name, int partitions) {}

  /** A producer with its run-wide id (ids are dense from 0 across all workers). */
  public record ProducerSpec(int producerId, String topic) {}

  public record ConsumerSpec(String topic, String subscription) {}

  /**
   * What every producer on a worker sends: message size, keys, payload bodies, and whether the
   * header travels in the broker's per-message metadata (then each body is sent whole, beside it)
   * or in the first bytes of the payload.
   */
  public record MessageSpec(
      int messageSize,
      KeyDistributorType keyDistributor,
      List<byte[]> bodies,
      boolean headerInMetadata) {}

  /**
   * Start of load: the rate of each producer, how long from now the first message is due, and how
   * producer threads wait between sends.
   */
  public record LoadSpec(double ratePerProducer, long startDelayNanos, Pacing pacing) {}

  /**
   * What the loss balance at the end of a run needs.
   *
   * @param ackedByProducer per producer id, the sequence numbers the broker acknowledged: loss is
   *     judged on these numbers, not on counts, so a message whose send failed but that arrived
   *     anyway never hides one that was acknowledged and lost
   * @param failedByProducer per producer id, the sequence numbers whose send failed
   * @param receivedBySubscription per subscription key and producer id, the sequence numbers
   *     received: sets rather than counts, so that a coordinator merging several workers counts a
   *     message that reached consumers on two of them once
   * @param duplicatesAcrossWorkers for each message received on several workers, the number of
   *     those workers beyond the first: duplicates no single worker could see (each counts its own
   *     in its periods); zero from a single worker
   * @param finalReadBySubscription per subscription key and producer id, the sequence numbers the
   *     final read found on the broker after the run ({@link io.plumb.driver.FinalReader}); empty
   *     when no final read ran
   */
  public record Totals(
      Map<Integer, SequenceRanges> ackedByProducer,
      Map<Integer, SequenceRanges> failedByProducer,
      Map<String, Map<Integer, SequenceRanges>> receivedBySubscription,
      long duplicatesAcrossWorkers,
      Map<String, Map<Integer, SequenceRanges>> finalReadBySubscription) {

    /** Totals without a final read. */
    public Totals(
        Map<Integer, SequenceRanges> ackedByProducer,
        Map<Integer, SequenceRanges> failedByProducer,
        Map<String, Map<Integer, SequenceRanges>> receivedBySubscription,
        long duplicatesAcrossWorkers) {
      this(
          ackedByProducer,
          failedByProducer,
          receivedBySubscription,
          duplicatesAcrossWorkers,
          Map.of());
    }

    /** Distinct messages of {@code producer} that subscription {@code key} received. */
    public long distinct(String key, int producer) {
      return received(key, producer).size();
    }

    public SequenceRanges received(String key, int producer) {
      SequenceRanges received = receivedBySubscription.getOrDefault(key, Map.of()).get(producer);
      return received == null ? SequenceRanges.EMPTY : received;
    }

    public SequenceRanges acked(int producer) {
      return ackedByProducer.getOrDefault(producer, SequenceRanges.EMPTY);
    }

    public SequenceRanges failed(int producer) {
      return failedByProducer.getOrDefault(producer, SequenceRanges.EMPTY);
    }

    /** What the final read found of {@code producer}'s messages for subscription {@code key}. */
    public SequenceRanges finalRead(String key, int producer) {
      SequenceRanges read = finalReadBySubscription.getOrDefault(key, Map.of()).get(producer);
      return read == null ? SequenceRanges.EMPTY : read;
    }

    /**
     * Acknowledged messages of {@code producer} that subscription {@code key} never received and
     * the final read did not find either: every loss figure of the run is taken from this.
     */
    public SequenceRanges missing(String key, int producer) {
      return acked(producer).minus(received(key, producer)).minus(finalRead(key, producer));
    }

    /**
     * Acknowledged messages of {@code producer} that subscription {@code key}'s consumers never
     * received but the final read found: still on the broker, so not lost.
     */
    public long foundOnlyByRead(String key, int producer) {
      return acked(producer).minus(received(key, producer)).overlap(finalRead(key, producer));
    }
  }

  /** The driver as initialised: its facts about the broker, as the driver reports them. */
  public record DriverInfo(
      String driverClass, String topicNamePrefix, Map<String, String> brokerFacts) {}

  public static String subscriptionKey(String topic, String subscription) {
    return topic + "/" + subscription;
  }
}
