package io.plumb.stats;

import java.util.Arrays;
import java.util.List;

/**
 * How much to add to a consumer's receive time to bring it onto the clock of the worker that
 * produced the message, by producer id. End-to-end latency is receive time minus the intended send
 * time written by the producing worker, so when the two workers' clocks disagree the difference
 * must be taken out, or an 80 ms skew turns 2 ms into 82 ms (or into a negative value).
 *
 * <p>Producers are dealt to producing workers round-robin by id, so the corrections form a short
 * table repeating every {@code slots} ids: producer {@code p} was stamped by the worker in slot
 * {@code p % slots}. One array lookup per message, no allocation.
 */
public final class ClockCorrections {
  /** Producers and consumers share one clock: nothing to correct. */
  public static final ClockCorrections NONE = new ClockCorrections(new long[] {0});

  private final long[] nanosBySlot;

  private ClockCorrections(long[] nanosBySlot) {
    this.nanosBySlot = nanosBySlot;
  }

  /**
   * @param nanosBySlot for each producing worker (in the order producers are dealt to them), its
   *     clock minus the consuming worker's clock
   */
  public static ClockCorrections bySlot(List<Long> nanosBySlot) {
    if (nanosBySlot.isEmpty()) {
      return NONE;
    }
    return new ClockCorrections(nanosBySlot.stream().mapToLong(Long::longValue).toArray());
  }

  /** The same correction for every producer. */
  public static ClockCorrections uniform(long nanos) {
    return new ClockCorrections(new long[] {nanos});
  }

  /** The slot of the producing worker that stamps producer {@code producerId}'s messages. */
  public static int slotOf(int producerId, int slots) {
    return Math.floorMod(producerId, slots);
  }

  public long forProducer(int producerId) {
    // Called once per delivery on the stats thread: skip the division when there is one slot.
    return nanosBySlot.length == 1
        ? nanosBySlot[0]
        : nanosBySlot[Math.floorMod(producerId, nanosBySlot.length)];
  }

  public List<Long> nanosBySlot() {
    return Arrays.stream(nanosBySlot).boxed().toList();
  }
}
