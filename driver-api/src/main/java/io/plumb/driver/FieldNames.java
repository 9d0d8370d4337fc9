package io.plumb.driver;

import java.util.Collection;
import java.util.TreeSet;

/**
 * The one phrasing of an unknown or misspelled field, shared by the framework's own files and every
 * driver's, so a user sees the same message wherever a name is wrong.
 */
public final class FieldNames {
  private FieldNames() {}

  /**
   * {@code unknown field 'name' (did you mean 'x'?); allowed: a, b, c}, without the suggestion when
   * no allowed name is close.
   */
  public static String unknown(String name, Collection<String> allowed) {
    return unknown(name, closest(name, allowed), allowed);
  }

  /** The same phrasing with a suggestion chosen by the caller (null for none). */
  public static String unknown(String name, String suggestion, Collection<String> allowed) {
    return "unknown field '"
        + name
        + "'"
        + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)")
        + "; allowed: "
        + String.join(", ", new TreeSet<>(allowed));
  }

  /** The allowed name closest to {@code name}, or null when none is plausibly meant. */
  public static String closest(String name, Collection<String> allowed) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : new TreeSet<>(allowed)) {
      int distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
      if (distance < bestDistance) {
        bestDistance = distance;
        best = candidate;
      }
    }
    return bestDistance <= Math.max(2, name.length() / 3) ? best : null;
  }

  static int editDistance(String a, String b) {
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
