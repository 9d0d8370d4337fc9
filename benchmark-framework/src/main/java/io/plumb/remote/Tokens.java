package io.plumb.remote;

import io.plumb.input.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * The shared secret between coordinator and workers: read from a file or from {@value #ENV}, sent
 * as a bearer token, compared in constant time. Never printed.
 */
public final class Tokens {
  public static final String ENV = "PLUMB_WORKER_TOKEN";

  private Tokens() {}

  /** The token from {@code file} if given, else from the environment, else none. */
  public static Optional<String> read(Path file, String option) {
    if (file != null) {
      String token;
      try {
        token = Files.readString(file).strip();
      } catch (IOException e) {
        throw new BadInputException(option + ": cannot read " + file + ": " + e.getMessage());
      }
      if (token.isEmpty()) {
        throw new BadInputException(option + ": " + file + " is empty; put the shared token in it");
      }
      return Optional.of(token);
    }
    String fromEnvironment = System.getenv(ENV);
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return Optional.of(fromEnvironment.strip());
    }
    return Optional.empty();
  }

  /** Whether an {@code Authorization} header carries {@code expected}, in constant time. */
  static boolean matches(String authorizationHeader, String expected) {
    String presented = "";
    if (authorizationHeader != null && authorizationHeader.startsWith("Bearer ")) {
      presented = authorizationHeader.substring("Bearer ".length());
    }
    // MessageDigest.isEqual takes time independent of where the arrays first differ.
    return MessageDigest.isEqual(
        presented.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
  }
}
