package io.plumb.remote;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.plumb.input.BadInputException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
  private static final YAMLMapper YAML =
      YAMLMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private WorkerEndpoints() {}

  private record WorkersFile(List<String> workers) {}

  public static List<URI> fromFile(Path file) {
    WorkersFile parsed;
    try {
      parsed = YAML.readValue(Files.readString(file), WorkersFile.class);
    } catch (NoSuchFileException e) {
      throw new BadInputException(file + ": workers file not found");
    } catch (UnrecognizedPropertyException e) {
      throw new BadInputException(
          file
              + ":"
              + e.getLocation().getLineNr()
              + ": field '"
              + e.getPropertyName()
              + "': unknown; a workers file has one field, 'workers', a list of URLs");
    } catch (IOException e) {
      throw new BadInputException(
          file
              + ": expected 'workers:' followed by a list of URLs: "
              + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
    if (parsed == null || parsed.workers() == null || parsed.workers().isEmpty()) {
      throw new BadInputException(
          file + ": field 'workers': expected a non-empty list of URLs such as http://host:8080");
    }
    return parse(parsed.workers(), file + ": field 'workers'");
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
