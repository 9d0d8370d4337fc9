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
    /** Producers fell behind their schedule while their threads were mostly free: the host. */
    GENERATOR_BOUND,
    /**
     * Producers fell behind because the driver's send() held them: broker or client backpressure.
     */
    PUBLISH_BEHIND,
    /** The broker acknowledged more slowly than producers sent: unacknowledged messages grew. */
    ACKNOWLEDGEMENTS_BEHIND,
    /** Consumers received more slowly than producers sent: the backlog grew. */
    CONSUMERS_BEHIND,
    /** The rate was sustained but the latency target was missed. */
    LATENCY_TARGET_MISSED,
    /** Sends or consumers failed. */
    ERRORS
  }

  public boolean sustained() {
    return kind == Kind.SUSTAINED;
  }
}
