package io.plumb.stats;

import java.util.Arrays;

/**
 * When one partition (or one producer) was sent to and when it acknowledged, in slices of actual
 * time: per slice the first and last actual send time and the first and last acknowledgement time.
 * Those four are minima and maxima, so events may arrive in any order and two neighbouring slices
 * merge exactly into one twice as wide (which is how {@link SendOutages} keeps memory bounded).
 *
 * <p>Not thread-safe: the {@link StatsCollector}'s thread writes; snapshots are copies.
 */
public final class OutageSlices {
  static final long NONE = Long.MIN_VALUE;

  private long[] firstSend;
  private long[] lastSend;
  private long[] firstAck;
  private long[] lastAck;
  private int used;

  OutageSlices() {
    this(new long[0], new long[0], new long[0], new long[0], 0);
  }

  private OutageSlices(long[] firstSend, long[] lastSend, long[] firstAck, long[] lastAck, int n) {
    this.firstSend = firstSend;
    this.lastSend = lastSend;
    this.firstAck = firstAck;
    this.lastAck = lastAck;
    this.used = n;
  }

  /** Returns how many slices were added to make room for {@code slice}. */
  int sent(int slice, long time) {
    int grown = ensure(slice);
    firstSend[slice] = firstSend[slice] == NONE ? time : Math.min(firstSend[slice], time);
    lastSend[slice] = Math.max(lastSend[slice], time);
    return grown;
  }

  int acknowledged(int slice, long time) {
    int grown = ensure(slice);
    firstAck[slice] = firstAck[slice] == NONE ? time : Math.min(firstAck[slice], time);
    lastAck[slice] = Math.max(lastAck[slice], time);
    return grown;
  }

  int slices() {
    return used;
  }

  /** Merges slices 2i and 2i+1 into slice i: the slices become twice as wide. */
  void halve() {
    int merged = (used + 1) / 2;
    for (int i = 0; i < merged; i++) {
      int a = 2 * i;
      int b = Math.min(a + 1, used - 1);
      firstSend[i] = earliest(firstSend[a], firstSend[b]);
      lastSend[i] = Math.max(lastSend[a], lastSend[b]);
      firstAck[i] = earliest(firstAck[a], firstAck[b]);
      lastAck[i] = Math.max(lastAck[a], lastAck[b]);
    }
    for (int i = merged; i < used; i++) {
      clear(i);
    }
    used = merged;
  }

  OutageSlices copy() {
    return new OutageSlices(
        Arrays.copyOf(firstSend, used),
        Arrays.copyOf(lastSend, used),
        Arrays.copyOf(firstAck, used),
        Arrays.copyOf(lastAck, used),
        used);
  }

  /**
   * The longest window that starts at an actual send and ends at the first acknowledgement after
   * it, among the windows that start in {@code [from, until)}; a window no acknowledgement ended
   * runs to {@code end} and is marked open. Every slice's unacknowledged sends start a window of
   * their own, so an outage that began before {@code from} still shows, from the first such send at
   * or after {@code from}. Exact for the first send of a slice; for sends after a slice's last
   * acknowledgement it starts at the slice's last send, so it can be short by less than one slice.
   * Windows that open and close within one slice (under one slice long) are not seen.
   */
  public Window longestWindow(long from, long until, long end) {
    Window longest = Window.NONE;
    long nextAck = NONE;
    for (int i = used - 1; i >= 0; i--) {
      if (firstSend[i] != NONE) {
        if (firstAck[i] == NONE || firstSend[i] < firstAck[i]) {
          long close = firstAck[i] != NONE ? firstAck[i] : nextAck;
          longest = longer(longest, window(firstSend[i], close, end), from, until);
        }
        if (firstAck[i] != NONE && lastSend[i] > lastAck[i]) {
          longest = longer(longest, window(lastSend[i], nextAck, end), from, until);
        }
      }
      if (firstAck[i] != NONE) {
        nextAck = firstAck[i];
      }
    }
    return longest;
  }

  private static Window window(long start, long close, long end) {
    return close == NONE
        ? new Window(start, Math.max(start, end), true)
        : new Window(start, close, false);
  }

  private static Window longer(Window best, Window candidate, long from, long until) {
    boolean startsIn = candidate.start() >= from && candidate.start() < until;
    return startsIn && candidate.nanos() > best.nanos() ? candidate : best;
  }

  private static long earliest(long a, long b) {
    return a == NONE ? b : b == NONE ? a : Math.min(a, b);
  }

  private int ensure(int slice) {
    int grown = 0;
    if (slice >= firstSend.length) {
      int old = firstSend.length;
      int length = Math.max(slice + 1, Math.max(16, old * 2));
      firstSend = Arrays.copyOf(firstSend, length);
      lastSend = Arrays.copyOf(lastSend, length);
      firstAck = Arrays.copyOf(firstAck, length);
      lastAck = Arrays.copyOf(lastAck, length);
      for (int i = old; i < length; i++) {
        clear(i);
      }
    }
    if (slice >= used) {
      grown = slice + 1 - used;
      used = slice + 1;
    }
    return grown;
  }

  private void clear(int i) {
    firstSend[i] = NONE;
    lastSend[i] = NONE;
    firstAck[i] = NONE;
    lastAck[i] = NONE;
  }

  /**
   * One window without acknowledgements, on the run's clock; {@code open} when none ended it.
   * {@link #NONE} has length -1.
   */
  public record Window(long start, long end, boolean open) {
    public static final Window NONE = new Window(0, -1, false);

    public long nanos() {
      return end - start;
    }
  }
}
