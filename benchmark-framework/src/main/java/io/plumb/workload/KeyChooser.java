package io.plumb.workload;

import java.util.Base64;
import java.util.SplittableRandom;

/**
 * Picks message keys without allocating: keys come from a fixed set built up front, as
 * OpenMessaging Benchmark's {@code KeyDistributor} builds it (10,000 keys, each 7 random bytes in
 * base64url without padding, so 10 characters: the same key bytes on the wire). One instance per
 * producer, not thread-safe; producers of a worker share one key set ({@link #keySet}), as OMB's
 * share one per worker, each starting at its own place in it: a set is about 600 KB.
 */
public final class KeyChooser {
  /** OMB's {@code KeyDistributor.UNIQUE_COUNT}. */
  static final int KEY_COUNT = 10_000;

  /** OMB's {@code KeyDistributor.KEY_BYTE_SIZE}. */
  private static final int KEY_BYTES = 7;

  private final KeyDistributorType type;
  private final String[] keys;
  // RANDOM_NANO's picks; null for the other types, so a producer without it costs nothing more.
  private final SplittableRandom random;
  private int next;

  /** A chooser with a key set of its own, built from {@code seed}. */
  public KeyChooser(KeyDistributorType type, long seed) {
    this(type, keySet(type, seed), seed);
  }

  /**
   * A chooser over a shared key set from {@link #keySet}, starting at a place {@code seed} picks.
   */
  public KeyChooser(KeyDistributorType type, String[] keySet, long seed) {
    this.type = type;
    this.keys = keySet;
    this.next = (int) Math.floorMod(seed, KEY_COUNT);
    this.random = type == KeyDistributorType.RANDOM_NANO ? new SplittableRandom(seed) : null;
  }

  /** The keys for {@code type}: none for {@code NO_KEY}, otherwise 10,000 built from the seed. */
  public static String[] keySet(KeyDistributorType type, long seed) {
    return type == KeyDistributorType.NO_KEY ? new String[0] : buildKeys(seed);
  }

  private static String[] buildKeys(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Base64.Encoder base64Url = Base64.getUrlEncoder().withoutPadding();
    String[] keys = new String[KEY_COUNT];
    byte[] bytes = new byte[KEY_BYTES];
    for (int i = 0; i < KEY_COUNT; i++) {
      random.nextBytes(bytes);
      keys[i] = base64Url.encodeToString(bytes);
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
        // OMB picks by System.nanoTime() % 10,000, random only because its sends are late by
        // varying amounts: sends on time to a schedule whose interval is a multiple of 10 us (any
        // rate dividing 100,000 msg/s) read nearly the same low digits each time, a few hot keys.
      case RANDOM_NANO -> keys[random.nextInt(KEY_COUNT)];
    };
  }
}
