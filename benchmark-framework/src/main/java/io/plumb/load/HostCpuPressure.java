package io.plumb.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The host's CPU pressure: microseconds during which some runnable task waited for a CPU, from
 * Linux's {@code /proc/pressure/cpu} ("some ... total="), read once a period beside the producer
 * threads' times. Hosts without it (older kernels, not Linux) report -1.
 */
final class HostCpuPressure {
  private static final Path PRESSURE = Path.of("/proc/pressure/cpu");

  private HostCpuPressure() {}

  /** Nanoseconds some task waited for a CPU since boot, or -1 when unknown. */
  static long someWaitNanos() {
    try {
      for (String line : Files.readAllLines(PRESSURE)) {
        if (line.startsWith("some ")) {
          int total = line.indexOf("total=");
          return total < 0 ? -1 : Long.parseLong(line.substring(total + 6).trim()) * 1_000;
        }
      }
    } catch (IOException | NumberFormatException | SecurityException e) {
      // Not reported here: the verdict does without it.
    }
    return -1;
  }
}
