package io.plumb.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The driver file that names the in-process loopback driver, as tests write it. */
public final class LoopbackDriverFile {
  /** The file's text without settings of its own. */
  public static final String TEXT =
      "name: Loopback\ndriverClass: io.plumb.loopback.LoopbackDriver\n";

  private LoopbackDriverFile() {}

  /** Writes {@code loopback.yaml} into {@code dir}. */
  public static Path write(Path dir) throws IOException {
    return write(dir, "");
  }

  /** Writes {@code loopback.yaml} into {@code dir}, with {@code settings} after the class. */
  public static Path write(Path dir, String settings) throws IOException {
    return Files.writeString(dir.resolve("loopback.yaml"), TEXT + settings);
  }
}
