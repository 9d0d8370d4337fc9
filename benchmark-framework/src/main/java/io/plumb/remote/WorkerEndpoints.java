package io.plumb.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.plumb.input.BadInputException;
import io.plumb.input.YamlFields;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The remote workers' URLs, from {@code --workers} or from a workers file in OpenMessaging
 * Benchmark's format:
 *
 * <pre>
 * workers:
 *   - http://10.0.0.1:8080
 *   - http://10.0.0.2:8080
 * </pre>
 */
public final class WorkerEndpoints {
  private static final YAMLMapper YAML = new YAMLMapper();

  private WorkerEndpoints() {}

  public static List<URI> fromFile(Path file) {
    YamlFields fields = YamlFields.read(file);
    fields.rejectFieldsOtherThan(List.of("workers"));
    JsonNode list;
    try {
      list = YAML.readTree(file.toFile()).get("workers");
    } catch (IOException e) {
      throw new BadInputException(file + ": cannot read: " + e.getMessage());
    }
    if (list == null || !list.isArray() || list.isEmpty()) {
      throw fields.error("workers", "expected a non-empty list of URLs such as http://host:8080");
    }
    List<String> urls = new ArrayList<>();
    for (JsonNode url : list) {
      if (!url.isTextual()) {
        throw fields.error("workers", "expected URLs such as http://host:8080, got " + url);
      }
      urls.add(url.asText());
    }
    return parse(urls, fields.where("workers"));
  }

  /** Checks and normalises URLs; {@code where} names the option or file field for errors. */
  public static List<URI> parse(List<String> urls, String where) {
    LinkedHashSet<URI> result = new LinkedHashSet<>();
    for (String url : urls) {
      URI uri;
      try {
        uri = new URI(url.strip());
      } catch (URISyntaxException e) {
        throw new BadInputException(
            where + ": '" + url + "' is not a URL such as http://host:8080");
      }
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw new BadInputException(
            where + ": '" + url + "' is not a URL such as http://host:8080 or https://host:8443");
      }
      if (!result.add(uri.resolve("/"))) {
        throw new BadInputException(where + ": " + url + " is listed twice");
      }
    }
    return new ArrayList<>(result);
  }
}
