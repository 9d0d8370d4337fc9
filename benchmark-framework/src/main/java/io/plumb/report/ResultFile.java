package io.plumb.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.input.BadInputException;
import io.plumb.stats.Histograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One Plumb result JSON, checked to be one: every field the report reads is present, and every
 * latency histogram decodes. A file that fails says so in one line naming the file and the field.
 *
 * @param histograms the decoded latency families ({@code publish}, {@code endToEnd}, ...), in
 *     nanoseconds, in the order the result lists them
 */
public record ResultFile(Path path, JsonNode json, Map<String, Histogram> histograms) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * The fields without which a file is not a Plumb result (OMB's own results lack the last two).
   */
  private static final String[] REQUIRED = {"workload", "driver", "throughput", "counters"};

  public static ResultFile read(Path path) {
    if (Files.isDirectory(path)) {
      throw new BadInputException(
          path + ": is a directory; give the result files in it, e.g. " + path + "/*.json");
    }
    if (!Files.isRegularFile(path)) {
      throw new BadInputException(path + ": file not found");
    }
    JsonNode json;
    try {
      json = MAPPER.readTree(path.toFile());
    } catch (JsonProcessingException e) {
      throw new BadInputException(
          path + ": not JSON (" + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
    } catch (IOException e) {
      throw new BadInputException(path + ": cannot read: " + e.getMessage());
    }
    if (json == null || !json.isObject()) {
      throw notAResult(path, "the file is not a JSON object");
    }
    for (String field : REQUIRED) {
      if (!json.hasNonNull(field)) {
        throw notAResult(path, "no field '" + field + "'");
      }
    }
    JsonNode latency = json.path("latency");
    if (!latency.isObject() || !latency.path("publish").path("histogram").isTextual()) {
      throw notAResult(path, "no field 'latency.publish.histogram'");
    }
    Map<String, Histogram> histograms = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> families = latency.fields();
    while (families.hasNext()) {
      Map.Entry<String, JsonNode> family = families.next();
      JsonNode encoded = family.getValue().path("histogram");
      if (!encoded.isTextual()) {
        continue;
      }
      try {
        histograms.put(family.getKey(), Histograms.decode(encoded.asText()));
      } catch (IllegalArgumentException e) {
        throw new BadInputException(
            path
                + ": field 'latency."
                + family.getKey()
                + ".histogram': not a base64 HdrHistogram encoding");
      }
    }
    return new ResultFile(path, json, histograms);
  }

  private static BadInputException notAResult(Path path, String why) {
    return new BadInputException(
        path + ": not a Plumb result (" + why + "); results are what bin/benchmark writes");
  }

  /** The file name without {@code .json}: the stem of everything exported for this result. */
  public String stem() {
    String name = path.getFileName().toString();
    return name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
  }

  public String workload() {
    return json.path("workload").asText();
  }

  public String driver() {
    return json.path("driver").asText();
  }
}
