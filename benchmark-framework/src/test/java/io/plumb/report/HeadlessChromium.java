package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium, headless, for the report's browser tests. A machine without it fails the test
 * with the line that installs it: a browser test that skips has tested nothing.
 */
final class HeadlessChromium {
  static final String INSTALL =
      "chromium is not installed: run deploy/local/install-debian-packages.sh"
          + " (or apt-get install -y chromium)";

  private HeadlessChromium() {}

  static Path binary() {
    return binary(System.getenv().getOrDefault("PATH", ""));
  }

  /** Chromium on {@code searchPath}, or a failure that says how to install it. */
  static Path binary(String searchPath) {
    for (String directory : searchPath.split(File.pathSeparator)) {
      Path candidate = Path.of(directory, "chromium");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return fail(INSTALL);
  }

  /** The page's DOM after its scripts ran, as Chromium serialises it. */
  static String dumpDom(Path page, Path workDir) throws IOException, InterruptedException {
    Path dom = workDir.resolve("dom.html");
    run(page, workDir, dom, "--dump-dom");
    return Files.readString(dom, StandardCharsets.UTF_8);
  }

  static void screenshot(Path page, Path workDir, Path png)
      throws IOException, InterruptedException {
    run(page, workDir, workDir.resolve("screenshot.log"), "--screenshot=" + png.toAbsolutePath());
    assertTrue(Files.size(png) > 0, "chromium wrote no screenshot");
  }

  private static void run(Path page, Path workDir, Path stdout, String action)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(binary().toString());
    command.addAll(
        List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1400,2400",
            // A profile of its own: never the user's, never shared with a parallel test.
            "--user-data-dir=" + workDir.resolve("profile").toAbsolutePath(),
            action,
            page.toAbsolutePath().toUri().toString()));
    Path stderr = workDir.resolve("chromium-stderr.log");
    Process chromium =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    if (!chromium.waitFor(90, TimeUnit.SECONDS)) {
      chromium.destroyForcibly();
      fail("chromium did not finish within 90 s; its log: " + stderr);
    }
    assertEquals(0, chromium.exitValue(), "chromium failed; its log: " + stderr);
  }
}
