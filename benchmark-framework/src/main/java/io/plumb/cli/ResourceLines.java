package io.plumb.cli;

import io.plumb.resources.HostStalls;
import io.plumb.resources.ResourceReport;
import io.plumb.resources.ResourceSample;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The console's lines on resources over the measured phase: the worker JVM (or, with remote
 * workers, the coordinator's and then each worker's), the host, the brokers.
 */
final class ResourceLines {
  private static final double MB = 1024 * 1024;
  private static final String INDENT = "             ";

  private ResourceLines() {}

  static void print(PrintStream out, ResourceReport resources) {
    boolean remote = !resources.remoteWorkers().isEmpty();
    if (resources.sampled()) {
      out.print("Resources    ");
      jvm(out, remote ? "coordinator" : "worker", resources);
    } else if (remote) {
      out.println("Resources    coordinator not sampled");
    } else {
      return;
    }
    resources
        .remoteWorkers()
        .forEach(
            (url, worker) -> {
              out.print(INDENT);
              if (worker.sampled()) {
                jvm(out, "worker " + url, worker);
              } else {
                out.println("worker " + url + ": " + worker.scope());
              }
            });
    if (!resources.sampled()) {
      return;
    }
    ResourceSample whole = resources.whole();
    whole
        .brokers()
        .forEach(
            (label, broker) ->
                out.printf(
                    INDENT
                        + "%s CPU %.2f cores | resident max %.0f MB | disk written %.1f MB (%.1f MB/s)%n",
                    label,
                    broker.cpuCores(),
                    resources.brokerResidentMaxBytes().getOrDefault(label, broker.residentBytes())
                        / MB,
                    broker.bytesWritten() / MB,
                    broker.bytesWritten() / MB / whole.seconds()));
  }

  /** One JVM's CPU, GC and heap, with its host's steal, stalls and load. */
  private static void jvm(PrintStream out, String name, ResourceReport jvm) {
    ResourceSample whole = jvm.whole();
    out.printf(
        "%s CPU %.2f cores (user %.2f, system %.2f; %.0f%% of %d) | GC %d pauses in %.1f ms (longest %.1f ms; %s) | heap max %.0f MB | steal %.1f%% | %s | load max %.2f%n",
        name,
        whole.workerCores(),
        whole.workerUserCores(),
        whole.workerSystemCores(),
        100 * jvm.jvmShareOfHost(),
        jvm.cores(),
        whole.gcCount(),
        whole.gcMillis(),
        whole.gcLongestPauseMillis(),
        gcSource(whole.gcSource()),
        jvm.heapUsedMaxBytes() / MB,
        100 * whole.stealShare(),
        stalls(whole),
        jvm.loadAverageMax());
  }

  /**
   * Host stalls as this JVM saw them (what delayed a sleeping thread), and beside them the longest
   * its producer threads waited for a core at once: a send delay as long as that wait is the host's
   * scheduling, not the generator's.
   */
  private static String stalls(ResourceSample whole) {
    double threshold = HostStalls.STALL_NANOS / 1e6;
    String stalls =
        whole.hostStalls() == 0
            ? String.format(Locale.ROOT, "host stalls none over %.0f ms", threshold)
            : String.format(
                Locale.ROOT,
                "host stalls %d over %.0f ms (%.1f ms in all, longest %.1f ms)",
                whole.hostStalls(),
                threshold,
                whole.hostStallMillis(),
                whole.hostLongestStallMillis());
    if (whole.producerLongestCoreWaitMillis() > 0) {
      stalls +=
          String.format(
              Locale.ROOT,
              ", producers waited for a core up to %.2f ms at once",
              whole.producerLongestCoreWaitMillis());
    }
    return stalls;
  }

  /** The source in a word where it read pauses; where none did (the JVM ran out of heap), why. */
  private static String gcSource(String source) {
    if (source.startsWith("JFR") && !source.contains("still starting")) {
      return "JFR";
    }
    return source.startsWith("GC MXBeans") ? "MXBeans, Remark and Cleanup unseen" : source;
  }
}
