package io.plumb.workload;

import java.util.SplittableRandom;

/**
 * Picks message keys without allocating: keys come from a fixed set built up front. One instance
 * per producer; not thread-safe.
 */
public final class KeyChooser {
  private static final int KEY_COUNT = 10_000;
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

  private final KeyDistributorType type;
  private final String[] keys;
  private int next;

  public KeyChooser(KeyDistributorType type, long seed) {
    this.type = type;
    this.keys = type == KeyDistributorType.NO_KEY ? new String[0] : buildKeys(seed);
    this.next = (int) Math.floorMod(seed, KEY_COUNT);
  }

  private static String[] buildKeys(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String[] keys = new String[KEY_COUNT];
    char[] chars = new char[7];
    for (int i = 0; i < KEY_COUNT; i++) {
      for (int c = 0; c < chars.length; c++) {
        chars[c] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      keys[i] = new String(chars);
    }
    return keys;
  }

  /** The key for the next message, or {@code null} for no key. */
  public String next() {
    return switch (type) {
      case NO_KEY -> null;
      case KEY_ROUND_ROBIN -> {
        String key = keys[next];
        next = next + 1 == KEY_COUNT ? 0 : next + 1;
        yield key;
      }
      case RANDOM_NANO -> keys[(int) Math.floorMod(System.nanoTime(), KEY_COUNT)];
    };
  }
}
