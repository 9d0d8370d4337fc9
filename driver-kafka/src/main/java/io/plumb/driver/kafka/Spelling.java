package io.plumb.driver.kafka;

import java.util.Collection;
import java.util.Optional;

/** Suggests the name a user probably meant, for one-line configuration errors. */
final class Spelling {
  private Spelling() {}

  /** The candidate closest to {@code name}, if it is close enough to be a likely typo. */
  static Optional<String> closest(String name, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distance(name.toLowerCase(), candidate.toLowerCase());
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    // A third of the name's length tolerates a couple of slips without proposing nonsense.
    return best != null && bestDistance <= Math.max(2, name.length() / 3)
        ? Optional.of(best)
        : Optional.empty();
  }

  /** " (did you mean 'x'?)" or "" when nothing is close. */
  static String didYouMean(String name, Collection<String> candidates) {
    return closest(name, candidates).map(c -> " (did you mean '" + c + "'?)").orElse("");
  }

  /** Levenshtein distance. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
