package io.plumb.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What unavailability is measured from: for each partition of each topic, and separately for each
 * producer, when it was sent to (actual send times) and when it acknowledged, in {@link
 * OutageSlices}; and, for the whole worker, acknowledgements and the slowest service time per
 * {@link #GOODPUT_SLICE_NANOS} of completion time.
 *
 * <p>Memory is bounded: slices start {@link #FINEST_SLICE_NANOS} wide, and once all partitions and
 * producers together hold more than {@link #CELL_BUDGET} slices, every slice doubles in width (an
 * exact merge). The width in use is the resolution the result states.
 *
 * <p>Kept only with a {@link PublishTimeline} (runs with a fault plan), by the collector's thread.
 */
public final class SendOutages {
  public static final long FINEST_SLICE_NANOS = 10_000_000L;
  public static final long GOODPUT_SLICE_NANOS = 100_000_000L;

  /** Slices of all keys together (32 bytes each): at most 16 MB. */
  static final int CELL_BUDGET = 1 << 19;

  private final int cellBudget;
  private long sliceNanos = FINEST_SLICE_NANOS;
  private long origin = Long.MIN_VALUE;
  private long cells;
  private long latest = Long.MIN_VALUE;

  // By topic index, then partition: no boxing or hashing per event on the collector's thread.
  private final List<OutageSlices[]> partitions = new ArrayList<>();
  private final List<OutageSlices> producers = new ArrayList<>();
  private final List<String> topics = new ArrayList<>();
  private final Map<String, Integer> topicIndexes = new HashMap<>();
  private int[] topicOfProducer = new int[0];
  private int[] producerIds = new int[0];

  private long goodputOrigin = Long.MIN_VALUE;
  private long[] acknowledged = new long[64];
  private long[] slowestService = new long[64];
  private int goodputSlices;

  public SendOutages() {
    this(CELL_BUDGET);
  }

  /** With a budget of {@code cellBudget} slices in all (the default is {@link #CELL_BUDGET}). */
  public SendOutages(int cellBudget) {
    this.cellBudget = cellBudget;
  }

  /**
   * Names the topic and id of producers from local index {@code first} on, so their partitions of
   * one topic are one partition, and producers are named as the result names them.
   */
  public void nameProducers(int first, List<String> topicNames, int[] ids) {
    int end = first + topicNames.size();
    if (end > topicOfProducer.length) {
      topicOfProducer = Arrays.copyOf(topicOfProducer, end);
      producerIds = Arrays.copyOf(producerIds, end);
    }
    for (int i = 0; i < topicNames.size(); i++) {
      String topic = topicNames.get(i);
      Integer index = topicIndexes.get(topic);
      if (index == null) {
        index = topics.size();
        topics.add(topic);
        topicIndexes.put(topic, index);
      }
      topicOfProducer[first + i] = index;
      producerIds[first + i] = ids[i];
    }
  }

  /**
   * @param sentAt the actual send time, or {@link PublishRecorder#UNKNOWN}; then the intended time
   *     stands in for it (the send is older than the producer's record of send times, about two
   *     seconds, so it is a stall itself, and the producer's lateness at that moment is all it may
   *     overstate)
   */
  public void acknowledged(int producer, int partition, long intended, long sentAt, long at) {
    long sent = sentAt == PublishRecorder.UNKNOWN ? intended : sentAt;
    latest = Math.max(latest, at);
    OutageSlices ofProducer = producer(producer);
    cells += ofProducer.sent(slice(sent), sent);
    cells += ofProducer.acknowledged(slice(at), at);
    if (partition >= 0) {
      OutageSlices ofPartition = partition(producer, partition);
      cells += ofPartition.sent(slice(sent), sent);
      cells += ofPartition.acknowledged(slice(at), at);
    }
    countGoodput(at, sentAt == PublishRecorder.UNKNOWN ? -1 : at - sentAt);
    keepWithinBudget();
  }

  /** A failed send starts windows (of its partition when known, and its producer's), ends none. */
  public void failed(int producer, int partition, long intended, long sentAt, long at) {
    long sent = sentAt == PublishRecorder.UNKNOWN ? intended : sentAt;
    latest = Math.max(latest, at);
    cells += producer(producer).sent(slice(sent), sent);
    if (partition >= 0) {
      cells += partition(producer, partition).sent(slice(sent), sent);
    }
    keepWithinBudget();
  }

  public Snapshot snapshot() {
    List<Keyed> partitionCopies = new ArrayList<>();
    for (int topic = 0; topic < partitions.size(); topic++) {
      OutageSlices[] ofTopic = partitions.get(topic);
      for (int partition = 0; partition < ofTopic.length; partition++) {
        if (ofTopic[partition] != null) {
          partitionCopies.add(
              new Keyed(topicName(topic) + "/" + partition, ofTopic[partition].copy()));
        }
      }
    }
    List<Keyed> producerCopies = new ArrayList<>();
    for (int i = 0; i < producers.size(); i++) {
      if (producers.get(i) != null) {
        int id = i < producerIds.length ? producerIds[i] : i;
        producerCopies.add(new Keyed(String.valueOf(id), producers.get(i).copy()));
      }
    }
    return new Snapshot(
        sliceNanos,
        latest,
        List.copyOf(partitionCopies),
        List.copyOf(producerCopies),
        goodputOrigin,
        Arrays.copyOf(acknowledged, goodputSlices),
        Arrays.copyOf(slowestService, goodputSlices));
  }

  private String topicName(int index) {
    return index < topics.size() ? topics.get(index) : "topic";
  }

  private OutageSlices producer(int producer) {
    while (producers.size() <= producer) {
      producers.add(null);
    }
    OutageSlices slices = producers.get(producer);
    if (slices == null) {
      slices = new OutageSlices();
      producers.set(producer, slices);
    }
    return slices;
  }

  private OutageSlices partition(int producer, int partition) {
    int topic = producer < topicOfProducer.length ? topicOfProducer[producer] : 0;
    while (partitions.size() <= topic) {
      partitions.add(new OutageSlices[0]);
    }
    OutageSlices[] ofTopic = partitions.get(topic);
    if (partition >= ofTopic.length) {
      ofTopic = Arrays.copyOf(ofTopic, Math.max(partition + 1, ofTopic.length * 2));
      partitions.set(topic, ofTopic);
    }
    OutageSlices slices = ofTopic[partition];
    if (slices == null) {
      slices = new OutageSlices();
      ofTopic[partition] = slices;
    }
    return slices;
  }

  private int slice(long time) {
    if (origin == Long.MIN_VALUE) {
      origin = time;
    }
    // A time before the first one recorded (another thread's earlier send) joins slice 0: its
    // exact time is kept, only its slice is shared.
    return (int) Math.max(0, (time - origin) / sliceNanos);
  }

  private void keepWithinBudget() {
    while (cells > cellBudget) {
      sliceNanos *= 2;
      cells = 0;
      for (OutageSlices[] ofTopic : partitions) {
        for (OutageSlices slices : ofTopic) {
          if (slices != null) {
            slices.halve();
            cells += slices.slices();
          }
        }
      }
      for (OutageSlices slices : producers) {
        if (slices != null) {
          slices.halve();
          cells += slices.slices();
        }
      }
    }
  }

  private void countGoodput(long at, long serviceNanos) {
    if (goodputOrigin == Long.MIN_VALUE) {
      goodputOrigin = at - Math.floorMod(at, GOODPUT_SLICE_NANOS);
    }
    long index = Math.floorDiv(at - goodputOrigin, GOODPUT_SLICE_NANOS);
    if (index < 0 || index >= Integer.MAX_VALUE) {
      return;
    }
    int slice = (int) index;
    if (slice >= acknowledged.length) {
      int length = Math.max(slice + 1, acknowledged.length * 2);
      acknowledged = Arrays.copyOf(acknowledged, length);
      slowestService = Arrays.copyOf(slowestService, length);
    }
    acknowledged[slice]++;
    slowestService[slice] = Math.max(slowestService[slice], serviceNanos);
    goodputSlices = Math.max(goodputSlices, slice + 1);
  }

  /** One partition ({@code topic/partition}) or producer (its id) and its slices. */
  public record Keyed(String name, OutageSlices slices) {}

  /**
   * The outages' record at one moment, on the run's clock.
   *
   * @param sliceNanos the width of the partitions' and producers' slices: the resolution
   * @param latest the latest completion seen: where windows no acknowledgement ended stop
   * @param goodputOrigin the start of goodput slice 0 ({@link #GOODPUT_SLICE_NANOS} wide)
   * @param acknowledged acknowledgements completed in each goodput slice
   * @param slowestService the longest service time (actual send to acknowledgement) among them
   */
  public record Snapshot(
      long sliceNanos,
      long latest,
      List<Keyed> partitions,
      List<Keyed> producers,
      long goodputOrigin,
      long[] acknowledged,
      long[] slowestService) {
    public static final Snapshot EMPTY =
        new Snapshot(FINEST_SLICE_NANOS, 0, List.of(), List.of(), 0, new long[0], new long[0]);
  }
}
