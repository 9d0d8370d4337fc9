package io.plumb.fault;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Times in fault plans: "20s", "1.5s", "500ms", "2m", or a bare number of seconds. */
final class Durations {
  private static final Pattern TEXT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m)?");

  private Durations() {}

  static Optional<Duration> parse(Object value) {
    if (value instanceof Number number) {
      return number.doubleValue() >= 0
          ? Optional.of(Duration.ofNanos(Math.round(number.doubleValue() * 1e9)))
          : Optional.empty();
    }
    if (!(value instanceof String text)) {
      return Optional.empty();
    }
    Matcher matcher = TEXT.matcher(text.trim());
    if (!matcher.matches()) {
      return Optional.empty();
    }
    double amount = Double.parseDouble(matcher.group(1));
    String unit = matcher.group(2) == null ? "s" : matcher.group(2);
    double seconds =
        switch (unit) {
          case "ms" -> amount / 1000;
          case "m" -> amount * 60;
          default -> amount;
        };
    return Optional.of(Duration.ofNanos(Math.round(seconds * 1e9)));
  }

  static String text(Duration duration) {
    long millis = duration.toMillis();
    if (millis % 1000 != 0) {
      return millis < 1000 ? millis + " ms" : String.format("%.3f s", millis / 1000.0);
    }
    return millis / 1000 + " s";
  }
}
