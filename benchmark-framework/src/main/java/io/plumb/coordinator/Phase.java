package io.plumb.coordinator;

/** The parts of a run, in order. */
public enum Phase {
  WARMUP("warm-up"),
  MEASURE("measure"),
  DRAIN("drain");

  private final String label;

  Phase(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
