package io.plumb.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One per-period series of a result (OMB's names: {@code publishRate}, {@code consumeRate}, {@code
 * backlog}, {@code publishLatency99pct}, ...) against seconds into the measured phase, each value
 * placed at the end of its period.
 */
public final class Timeline {
  /** One period's value, at {@code seconds} from the start of measurement. */
  public record Point(double seconds, double value) {}

  private Timeline() {}

  /** The series of acknowledged msg/s per 100 ms around each fault (see {@link #goodput}). */
  public static final String FAULT_GOODPUT = "faultGoodput";

  public static List<Point> of(JsonNode result, String series) {
    if (series.equals(FAULT_GOODPUT)) {
      return goodput(result);
    }
    JsonNode values =
        switch (series) {
          case "workerCpuCores", "brokerCpuCores" -> resourceSeries(result, series);
          default -> result.path(series);
        };
    List<Point> points = new ArrayList<>();
    if (!values.isArray()) {
      return points;
    }
    double[] ends = periodEnds(result, values.size());
    JsonNode samples = result.path(samplesOf(series));
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i).isNumber()) {
        boolean none = samples.path(i).isNumber() && samples.path(i).asDouble() == 0;
        points.add(new Point(ends[i], none ? NO_SAMPLE : values.get(i).asDouble()));
      }
    }
    return points;
  }

  /**
   * The value of a period that recorded no latency: the result writes 0 there, as OMB does, which
   * drawn would read as the fastest moment of the run, an outage's period among them.
   */
  public static final double NO_SAMPLE = Double.NaN;

  /**
   * The rate whose zero means a latency series had no sample in that period: publish latency is
   * recorded on acknowledgement, end-to-end latency on receipt; "" for other series.
   */
  private static String samplesOf(String series) {
    if (series.startsWith("publishLatency")) {
      return "acknowledgeRate";
    }
    return series.startsWith("endToEndLatency") ? "consumeRate" : "";
  }

  /**
   * Acknowledged msg/s per slice around every fault ({@code faults[].unavailability.goodput}), each
   * value at the end of its slice, in time order; slices two faults share are drawn once. The
   * faults come in the plan's order, which need not be their order in time.
   */
  private static List<Point> goodput(JsonNode result) {
    List<Point> slices = new ArrayList<>();
    double slice = 0;
    for (JsonNode fault : result.path("faults")) {
      JsonNode goodput = fault.path("unavailability").path("goodput");
      double from = goodput.path("fromSeconds").asDouble();
      slice = goodput.path("sliceSeconds").asDouble();
      JsonNode rates = goodput.path("acknowledgedPerSecond");
      for (int i = 0; i < rates.size(); i++) {
        slices.add(new Point(from + (i + 1) * slice, rates.get(i).asDouble()));
      }
    }
    slices.sort(Comparator.comparingDouble(Point::seconds));
    List<Point> points = new ArrayList<>();
    double drawnUntil = Double.NEGATIVE_INFINITY;
    for (Point point : slices) {
      if (point.seconds() > drawnUntil + slice / 2) {
        points.add(point);
        drawnUntil = point.seconds();
      }
    }
    return points;
  }

  /**
   * A resource series, one value per sampled period, from {@code resources.periods}; the workers'
   * CPU of a run with remote workers is the sum of theirs.
   */
  private static JsonNode resourceSeries(JsonNode result, String series) {
    JsonNode remote = result.path("resources").path("remoteWorkers");
    if (series.equals("workerCpuCores") && remote.isObject() && !remote.isEmpty()) {
      return remoteWorkerCpu(remote);
    }
    ArrayNode values = JsonNodeFactory.instance.arrayNode();
    for (JsonNode period : result.path("resources").path("periods")) {
      if (series.equals("workerCpuCores")) {
        values.add(
            period.path("workerCpuUserCores").asDouble()
                + period.path("workerCpuSystemCores").asDouble());
      } else if (!period.path("brokers").isEmpty()) {
        double cores = 0;
        for (JsonNode broker : period.path("brokers")) {
          cores += broker.path("cpuCores").asDouble();
        }
        values.add(cores);
      }
    }
    return values;
  }

  private static JsonNode remoteWorkerCpu(JsonNode remoteWorkers) {
    List<Double> sums = new ArrayList<>();
    for (JsonNode worker : remoteWorkers) {
      JsonNode periods = worker.path("periods");
      for (int i = 0; i < periods.size(); i++) {
        double cores =
            periods.get(i).path("workerCpuUserCores").asDouble()
                + periods.get(i).path("workerCpuSystemCores").asDouble();
        if (i < sums.size()) {
          sums.set(i, sums.get(i) + cores);
        } else {
          sums.add(cores);
        }
      }
    }
    ArrayNode values = JsonNodeFactory.instance.arrayNode();
    sums.forEach(values::add);
    return values;
  }

  /**
   * Ends of the periods: from their recorded lengths, or (results without {@code periodSeconds})
   * the measured time shared equally, as OMB's fixed periods are.
   */
  private static double[] periodEnds(JsonNode result, int count) {
    double[] ends = new double[count];
    JsonNode lengths = result.path("periodSeconds");
    double equalShare =
        count == 0 ? 0 : result.path("phases").path("measuredSeconds").asDouble(count) / count;
    double end = 0;
    for (int i = 0; i < count; i++) {
      JsonNode length = lengths.path(i);
      end += length.isNumber() ? length.asDouble() : equalShare;
      ends[i] = end;
    }
    return ends;
  }
}
