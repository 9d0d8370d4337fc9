package io.plumb.coordinator;

import java.util.regex.Pattern;

/** Keeps passwords and tokens out of results and logs. */
final class Secrets {
  private static final Pattern SECRET_KEY =
      Pattern.compile("(?i).*(pass|secret|token|credential|sasl\\.jaas).*");

  private Secrets() {}

  static String mask(String key, String value) {
    return SECRET_KEY.matcher(key).matches() ? "***" : value;
  }
}
