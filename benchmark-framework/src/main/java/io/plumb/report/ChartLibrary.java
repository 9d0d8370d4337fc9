package io.plumb.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * Chart.js, read from its WebJar on the classpath so the report can inline it: the HTML then opens
 * offline, and the repository holds no copy of a 200 KB library. The version is the one Maven
 * resolved, read from the WebJar's own metadata.
 */
final class ChartLibrary {
  private static final String METADATA = "META-INF/maven/org.webjars/chartjs/pom.properties";
  private static final String SCRIPT = "META-INF/resources/webjars/chartjs/%s/dist/chart.umd.js";

  private ChartLibrary() {}

  static String version() {
    Properties properties = new Properties();
    try (InputStream in = open(METADATA)) {
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version");
  }

  /** The library's UMD bundle, safe to place inside a {@code <script>} element. */
  static String script() {
    try (InputStream in = open(String.format(SCRIPT, version()))) {
      String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      // The source map is not shipped in the report; a browser would only fail to fetch it.
      return script
          .replaceAll("(?m)^//# sourceMappingURL=.*$", "")
          .replace("</script", "<\\/script");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream open(String resource) {
    InputStream in = ChartLibrary.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException(
          resource + " is not on the classpath: rebuild with 'mvn -q package -DskipTests'");
    }
    return in;
  }
}
