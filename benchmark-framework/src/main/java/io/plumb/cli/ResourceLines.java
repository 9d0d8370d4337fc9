package io.plumb.cli;

import io.plumb.resources.ResourceReport;
import io.plumb.resources.ResourceSample;
import java.io.PrintStream;

/** The console's lines on resources over the measured phase: the worker, the host, the brokers. */
final class ResourceLines {
  private static final double MB = 1024 * 1024;

  private ResourceLines() {}

  static void print(PrintStream out, ResourceReport resources) {
    if (!resources.sampled()) {
      return;
    }
    ResourceSample whole = resources.whole();
    out.printf(
        "Resources    worker CPU %.2f cores (user %.2f, system %.2f; %.0f%% of %d) | GC %d in %d ms (longest %d ms) | heap max %.0f MB | steal %.1f%% | load max %.2f%n",
        whole.workerCores(),
        whole.workerUserCores(),
        whole.workerSystemCores(),
        100 * resources.workerShareOfHost(),
        resources.cores(),
        whole.gcCount(),
        whole.gcMillis(),
        whole.gcLongestPauseMillis(),
        resources.heapUsedMaxBytes() / MB,
        100 * whole.stealShare(),
        resources.loadAverageMax());
    whole
        .brokers()
        .forEach(
            (label, broker) ->
                out.printf(
                    "             %s CPU %.2f cores | resident max %.0f MB | disk written %.1f MB (%.1f MB/s)%n",
                    label,
                    broker.cpuCores(),
                    resources.brokerResidentMaxBytes().getOrDefault(label, broker.residentBytes())
                        / MB,
                    broker.bytesWritten() / MB,
                    broker.bytesWritten() / MB / whole.seconds()));
  }
}
