package io.plumb.stats;

import java.util.Arrays;

/**
 * What became of the sends of each short slice of the schedule, by intended send time: how many
 * were acknowledged, failed, or acknowledged only after the stall threshold, and when the first
 * acknowledgement of the slice came. A fault's unavailability is read from it: the first slice
 * whose sends failed or stalled, and the first acknowledgement of a send intended at or after it.
 *
 * <p>Kept only for runs that need it (a fault plan), by the {@link StatsCollector}'s thread. Slices
 * are {@link #SLICE_NANOS} wide, counted from the first intended time recorded, or from up to a
 * second before the earliest when an earlier send came back later (see {@link #slice}).
 */
public final class PublishTimeline {
  /** 10 ms: fine enough for sub-second faults, 100 slices a second of run. */
  public static final long SLICE_NANOS = 10_000_000L;

  /**
   * The fewest slices the timeline grows by in front: a second, so that the sends in flight when
   * the first recorded one came back, arriving later in any order, cost a copy a second at most.
   */
  private static final int GROW_FRONT_SLICES = 100;

  private final long stallNanos;
  private long origin = Long.MIN_VALUE;
  private long[] acked = new long[1024];
  private long[] failed = new long[1024];
  private long[] stalled = new long[1024];
  private long[] lost = new long[1024];
  private long[] firstAck = filled(1024);
  private long[] slowest = new long[1024];
  private int used;
  private final SendOutages outages = new SendOutages();

  /**
   * @param stallNanos an acknowledgement later than this after the intended send time is a stall
   */
  public PublishTimeline(long stallNanos) {
    this.stallNanos = stallNanos;
  }

  public void acknowledged(long intended, long completed) {
    int slice = slice(intended);
    if (slice < 0) {
      return;
    }
    acked[slice]++;
    long latency = completed - intended;
    if (latency > stallNanos) {
      stalled[slice]++;
    }
    slowest[slice] = Math.max(slowest[slice], latency);
    firstAck[slice] = Math.min(firstAck[slice], completed);
  }

  public void failed(long intended) {
    int slice = slice(intended);
    if (slice >= 0) {
      failed[slice]++;
    }
  }

  /** Per partition and per producer, by actual send time: what unavailability is measured from. */
  public SendOutages outages() {
    return outages;
  }

  /** A copy to hand out: the collector keeps recording into this one. */
  public Snapshot snapshot() {
    return new Snapshot(
        origin,
        stallNanos,
        Arrays.copyOf(acked, used),
        Arrays.copyOf(failed, used),
        Arrays.copyOf(stalled, used),
        Arrays.copyOf(lost, used),
        Arrays.copyOf(firstAck, used),
        Arrays.copyOf(slowest, used),
        outages.snapshot());
  }

  private int slice(long intended) {
    if (origin == Long.MIN_VALUE) {
      origin = intended;
    }
    long index = Math.floorDiv(intended - origin, SLICE_NANOS);
    if (index < 0) {
      // Due before the first send recorded, yet recorded after it: acknowledgements of other
      // producers and partitions come back in any order, and a failure only once its timeout ran
      // out. The run counts it, so the timeline grows in front to hold it; dropped, it went
      // missing from every fault's figures and from those before the first fault.
      long front = Math.max(-index, GROW_FRONT_SLICES);
      if (front > Integer.MAX_VALUE - 1 - used) {
        return -1; // over 248 days before the first send: a clock gone wrong, not a send
      }
      growFront((int) front);
      index += front;
    }
    if (index > Integer.MAX_VALUE - 1) {
      return -1; // over 248 days after the first send: a clock gone wrong, not a send
    }
    int slice = (int) index;
    if (slice >= acked.length) {
      int length = Math.max(slice + 1, acked.length * 2);
      acked = Arrays.copyOf(acked, length);
      failed = Arrays.copyOf(failed, length);
      stalled = Arrays.copyOf(stalled, length);
      lost = Arrays.copyOf(lost, length);
      slowest = Arrays.copyOf(slowest, length);
      int old = firstAck.length;
      firstAck = Arrays.copyOf(firstAck, length);
      Arrays.fill(firstAck, old, length, Long.MAX_VALUE);
    }
    used = Math.max(used, slice + 1);
    return slice;
  }

  /** Adds {@code slices} empty slices in front of the first, moving the origin back. */
  private void growFront(int slices) {
    acked = shifted(acked, slices, 0);
    failed = shifted(failed, slices, 0);
    stalled = shifted(stalled, slices, 0);
    lost = shifted(lost, slices, 0);
    slowest = shifted(slowest, slices, 0);
    firstAck = shifted(firstAck, slices, Long.MAX_VALUE);
    origin -= slices * SLICE_NANOS;
    used += slices;
  }

  private static long[] shifted(long[] values, int by, long empty) {
    long[] grown = new long[values.length + by];
    System.arraycopy(values, 0, grown, by, values.length);
    Arrays.fill(grown, 0, by, empty);
    return grown;
  }

  private static long[] filled(int length) {
    long[] values = new long[length];
    Arrays.fill(values, Long.MAX_VALUE);
    return values;
  }

  /**
   * The timeline at one moment; slice {@code i} holds sends intended from {@code origin + i *
   * SLICE_NANOS}. {@code firstAck} is {@code Long.MAX_VALUE} where nothing was acknowledged. {@code
   * outages} holds the same sends by partition and producer, by actual send time.
   */
  public record Snapshot(
      long origin,
      long stallNanos,
      long[] acked,
      long[] failed,
      long[] stalled,
      long[] lost,
      long[] firstAck,
      long[] slowest,
      SendOutages.Snapshot outages) {

    public static final Snapshot EMPTY =
        new Snapshot(
            0,
            0,
            new long[0],
            new long[0],
            new long[0],
            new long[0],
            new long[0],
            new long[0],
            SendOutages.Snapshot.EMPTY);

    public int slices() {
      return acked.length;
    }

    public long sliceStart(int slice) {
      return origin + slice * SLICE_NANOS;
    }

    /**
     * Counts an acknowledged message the run counts as lost, known only once the run has drained,
     * in the slice of its intended send time; one due outside the timeline goes to its first or
     * last slice, so the timeline's losses always add up to the run's.
     */
    public void addLost(long intended) {
      if (slices() == 0) {
        return;
      }
      long slice = Math.floorDiv(intended - origin, SLICE_NANOS);
      lost[(int) Math.max(0, Math.min(slices() - 1, slice))]++;
    }

    /** The slice holding intended time {@code time}, clamped to the timeline. */
    public int sliceOf(long time) {
      long index = Math.floorDiv(time - origin, SLICE_NANOS);
      return (int) Math.max(0, Math.min(slices(), index));
    }
  }
}
