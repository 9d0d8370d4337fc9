package io.plumb.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * Writes every latency histogram as an HdrHistogram percentile file ({@code .hgrm}, values in
 * microseconds), the text format HdrHistogram's own plotter and other existing tools read. Named
 * {@code <result>.<family>.hgrm}, beside the report.
 */
final class HgrmExport {
  /**
   * Microseconds in the files: the format prints as many decimals as the histogram has significant
   * digits (three), so milliseconds would show a sub-microsecond latency as 0.000.
   */
  private static final double NANOS_PER_MICRO = 1e3;

  private HgrmExport() {}

  /** Writes the files into {@code directory}; returns them in the order of the results. */
  static List<Path> write(List<ResultFile> results, Path directory) throws IOException {
    List<Path> written = new ArrayList<>();
    Set<String> stems = new HashSet<>();
    for (ResultFile result : results) {
      String stem = result.stem();
      for (int n = 2; !stems.add(stem); n++) {
        stem = result.stem() + "-" + n;
      }
      for (Map.Entry<String, Histogram> family : result.histograms().entrySet()) {
        if (family.getValue().getTotalCount() == 0) {
          continue;
        }
        Path file = directory.resolve(stem + "." + family.getKey() + ".hgrm");
        try (OutputStream bytes = Files.newOutputStream(file);
            PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
          family.getValue().outputPercentileDistribution(out, NANOS_PER_MICRO);
        }
        written.add(file);
      }
    }
    return written;
  }
}
