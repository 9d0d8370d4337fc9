package io.plumb.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenMessaging Benchmark's workload fields, one test per field, each checking that Plumb gives the
 * field OMB's meaning (as OMB's {@code Workload}, {@code WorkloadGenerator}, {@code LocalWorker}
 * and {@code KeyDistributor} use it), not only that it parses.
 */
class OmbWorkloadFieldsTest {
  /** An OMB workload; tests replace lines of it. */
  private static final String BASE =
      """
      name: OMB fields
      topics: 1
      partitionsPerTopic: 4
      keyDistributor: KEY_ROUND_ROBIN
      messageSize: 200
      useRandomizedPayloads: true
      randomBytesRatio: 0.5
      randomizedPayloadPoolSize: 8
      subscriptionsPerTopic: 1
      consumerPerSubscription: 1
      producersPerTopic: 1
      producerRate: 4000
      consumerBacklogSizeGB: 0
      testDurationMinutes: 15
      warmupDurationMinutes: 1
      """;

  private static final String BASE64URL_10 = "[A-Za-z0-9_-]{10}";

  @TempDir Path dir;

  /** OMB's KEY_ROUND_ROBIN cycles through 10,000 keys of 7 random bytes in base64url. */
  @Test
  void keyDistributorKeyRoundRobin() {
    KeyChooser keys = new KeyChooser(KeyDistributorType.KEY_ROUND_ROBIN, 42);
    List<String> first = next(keys, 10_000);
    assertEquals(10_000, new HashSet<>(first).size(), "10,000 distinct keys");
    first.forEach(key -> assertTrue(key.matches(BASE64URL_10), key));
    assertEquals(first, next(keys, 10_000), "then the same keys in the same order");
  }

  /** OMB's NO_KEY sends every message without a key. */
  @Test
  void keyDistributorNoKey() {
    KeyChooser keys = new KeyChooser(KeyDistributorType.NO_KEY, 42);
    next(keys, 1_000).forEach(key -> assertNull(key));
  }

  /** OMB's RANDOM_NANO picks a key of the same fixed set by the clock's low digits. */
  @Test
  void keyDistributorRandomNano() {
    Set<String> set =
        new HashSet<>(next(new KeyChooser(KeyDistributorType.KEY_ROUND_ROBIN, 7), 10_000));
    List<String> picked = next(new KeyChooser(KeyDistributorType.RANDOM_NANO, 7), 10_000);
    picked.forEach(key -> assertTrue(set.contains(key), key));
    assertTrue(
        new HashSet<>(picked).size() > 10, "picked by the clock: " + new HashSet<>(picked).size());
  }

  /**
   * OMB: the first {@code (int) (messageSize * randomBytesRatio)} bytes of each pooled payload are
   * random, the rest zeros.
   */
  @Test
  void randomBytesRatio() throws IOException {
    List<byte[]> half =
        Payloads.forWorkload(read(BASE.replace("messageSize: 200", "messageSize: 1000")), 1);
    long randomNonZero = 0;
    for (byte[] body : half) {
      assertEquals(1000, body.length);
      for (int b = 500; b < 1000; b++) {
        assertEquals(0, body[b], "byte " + b + " is past the random half");
      }
      for (int b = 0; b < 500; b++) {
        randomNonZero += body[b] != 0 ? 1 : 0;
      }
    }
    // A random byte is zero one time in 256.
    assertTrue(randomNonZero > 0.98 * 500 * half.size(), "random bytes: " + randomNonZero);

    // 100 * 0.29 is 28.999...: OMB truncates to 28 random bytes.
    List<byte[]> truncated =
        Payloads.forWorkload(
            read(
                BASE.replace("messageSize: 200", "messageSize: 100")
                    .replace("randomBytesRatio: 0.5", "randomBytesRatio: 0.29")
                    .replace("randomizedPayloadPoolSize: 8", "randomizedPayloadPoolSize: 64")),
            1);
    boolean lastRandomByteUsed = false;
    for (byte[] body : truncated) {
      for (int b = 28; b < 100; b++) {
        assertEquals(0, body[b], "byte " + b);
      }
      lastRandomByteUsed |= body[27] != 0;
    }
    assertTrue(lastRandomByteUsed, "byte 27 is random");
  }

  private Workload read(String yaml) throws IOException {
    Path file = dir.resolve("workload-" + Integer.toHexString(yaml.hashCode()) + ".yaml");
    Files.writeString(file, yaml);
    return WorkloadReader.read(file);
  }

  private static List<String> next(KeyChooser keys, int count) {
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(keys.next());
    }
    return out;
  }
}
