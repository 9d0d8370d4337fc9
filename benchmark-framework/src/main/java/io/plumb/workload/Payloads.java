package io.plumb.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The payload bodies producers send. The framework overwrites the first {@code MessageHeader.SIZE}
 * bytes of each message with its header, so only the rest of a body matters.
 */
public final class Payloads {
  private Payloads() {}

  /** Bodies for the workload: the payload file, a randomized pool, or one random body. */
  public static List<byte[]> forWorkload(Workload workload, long seed) {
    if (workload.useRandomizedPayloads()) {
      return randomizedPool(
          workload.messageSize(),
          workload.randomizedPayloadPoolSize(),
          workload.randomBytesRatio(),
          seed);
    }
    if (workload.payloadFile().isPresent()) {
      try {
        return List.of(Files.readAllBytes(workload.payloadFile().get()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    // Random rather than zeros, so compressing clients do not report flattering figures.
    return randomizedPool(workload.messageSize(), 1, 1.0, seed);
  }

  /**
   * OMB's randomized payloads: the first {@code ratio} of each body random, the rest zeros. The
   * random part is {@code (int) (size * ratio)} bytes, truncated as OMB truncates it (100 bytes at
   * 0.29 is 28 random bytes, not 29).
   */
  static List<byte[]> randomizedPool(int size, int count, double ratio, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[][] pool = new byte[count][];
    int randomBytes = (int) (size * ratio);
    for (int i = 0; i < count; i++) {
      pool[i] = new byte[size];
      for (int b = 0; b < randomBytes; b++) {
        pool[i][b] = (byte) random.nextInt(256);
      }
    }
    return List.of(pool);
  }
}
