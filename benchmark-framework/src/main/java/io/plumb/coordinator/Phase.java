package io.plumb.coordinator;

import java.util.Locale;

/** The parts of a run, in order. */
public enum Phase {
  WARM_UP,
  MEASURE,
  DRAIN;

  /** How progress lines and results name the phase: "warm-up", "measure", "drain". */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
