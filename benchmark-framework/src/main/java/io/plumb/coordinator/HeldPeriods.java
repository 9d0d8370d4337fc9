package io.plumb.coordinator;

import io.plumb.result.PeriodSample;
import java.lang.ref.WeakReference;
import java.util.ArrayDeque;

/**
 * How many kept periods hold their figures as they came (some 800 KB each), across every run of
 * this process: up to a budget, the oldest released first, whichever run it belongs to. A search or
 * a set of repeats keeps every step's report, so a budget per run would let long steps add up to
 * more than the heap. Periods of runs nobody keeps any more are forgotten (weakly held here).
 */
final class HeldPeriods {
  /** An eighth of the heap: some 1,900 periods in a 12 GB heap, 40 in 256 MB. */
  static final HeldPeriods PROCESS = new HeldPeriods(Runtime.getRuntime().maxMemory() / 8);

  private record Held(WeakReference<PeriodSample> sample, long bytes) {}

  private final long budget;
  private final ArrayDeque<Held> oldestFirst = new ArrayDeque<>();
  private long held;

  HeldPeriods(long budget) {
    this.budget = budget;
  }

  /** Counts {@code sample}'s figures in, releasing the oldest others' while over the budget. */
  synchronized void add(PeriodSample sample) {
    long bytes = sample.heldBytes();
    oldestFirst.addLast(new Held(new WeakReference<>(sample), bytes));
    held += bytes;
    while (held > budget && oldestFirst.size() > 1) {
      Held oldest = oldestFirst.removeFirst();
      held -= oldest.bytes();
      PeriodSample gone = oldest.sample().get();
      if (gone != null) {
        gone.release();
      }
    }
  }

  synchronized long heldBytes() {
    return held;
  }
}
