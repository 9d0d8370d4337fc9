package io.plumb.search;

/**
 * One probe of a search and what was concluded from it.
 *
 * @param stage {@code grow} (doubling until a rate fails), {@code confirm} (the failure that ends
 *     growth, probed once more), {@code shrink} (the first rate failed), {@code bisect}, or {@code
 *     recheck} (the answer-to-be probed once more: the answer must pass twice)
 */
public record SearchStep(int index, String stage, ProbeOutcome outcome, StepVerdict verdict) {}
