package io.plumb.search;

/**
 * Whether a probe's rate was sustained, and if not, why.
 *
 * @param kind the finding; only {@link Kind#SUSTAINED} passes
 * @param reason one sentence with the figures behind the finding
 */
public record StepVerdict(Kind kind, String reason) {

  public enum Kind {
    /** Producers kept to the schedule and the broker and consumers kept up. */
    SUSTAINED,
    /** Producers fell behind their schedule starved of CPU (or running all along): the host. */
    GENERATOR_BOUND,
    /**
     * Producers fell behind because the driver's send() blocked them, or acknowledgements slowed:
     * broker or client backpressure.
     */
    PUBLISH_BEHIND,
    /** Producers fell behind and their threads' time points both ways (or was not measured). */
    UNDECIDED,
    /** The broker acknowledged more slowly than producers sent: unacknowledged messages grew. */
    ACKNOWLEDGEMENTS_BEHIND,
    /** Consumers received more slowly than producers sent: the backlog grew. */
    CONSUMERS_BEHIND,
    /**
     * The rates held, but messages the broker acknowledged had not all reached their consumers when
     * the drain ended: lost, or consumers still catching up.
     */
    UNDELIVERED,
    /**
     * Unacknowledged messages or the backlog grew, but by no more than the latency's spread moves
     * them at a steady rate: the probe was too short to tell. Not sustained; the search probes the
     * rate again for longer.
     */
    TOO_SHORT_TO_TELL,
    /** The rate was sustained but the latency target was missed. */
    LATENCY_TARGET_MISSED,
    /** Sends or consumers failed. */
    ERRORS
  }

  /** The kind as the result and the console name it: "acknowledgements-behind". */
  public String label() {
    return kind.name().toLowerCase().replace('_', '-');
  }

  public boolean sustained() {
    return kind == Kind.SUSTAINED;
  }
}
