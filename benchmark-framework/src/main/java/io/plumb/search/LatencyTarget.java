package io.plumb.search;

import io.plumb.input.BadInputException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A latency objective such as {@code p99 end-to-end <= 10ms}: a percentile of one latency family
 * that must not exceed a limit.
 *
 * @param family which latency: publish (intended send to acknowledgement) or end-to-end (intended
 *     send to receipt)
 * @param percentile from 0 to 100, e.g. 99.9
 * @param limitNanos the highest acceptable value
 */
public record LatencyTarget(Family family, double percentile, long limitNanos) {

  /** The latency families a target can name, with their spelling on the command line. */
  public enum Family {
    PUBLISH,
    END_TO_END;

    /** The family's spelling on the command line: "publish" or "end-to-end". */
    public String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  static final String SYNTAX =
      "expected 'pPERCENTILE FAMILY <= LIMIT', e.g. 'p99 end-to-end <= 10ms' or 'p99.9 publish <= 500us'"
          + " (FAMILY: publish or end-to-end; PERCENTILE above 0 and at most 100; LIMIT a number with unit us, ms or s)";

  private static final Pattern FORM =
      Pattern.compile(
          "\\s*p(\\d+(?:\\.\\d+)?)\\s+(publish|end-to-end)\\s*<=\\s*(\\d+(?:\\.\\d+)?)\\s*(us|ms|s)\\s*");

  /** Parses the {@code --slo} option; bad input is one line naming the option. */
  public static LatencyTarget parse(String text) {
    Matcher matcher = FORM.matcher(text.toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new BadInputException("--slo: " + SYNTAX + ", got '" + text + "'");
    }
    double percentile = Double.parseDouble(matcher.group(1));
    if (!(percentile > 0 && percentile <= 100)) {
      throw new BadInputException(
          "--slo: the percentile must be above 0 and at most 100, got p"
              + matcher.group(1)
              + " in '"
              + text
              + "'");
    }
    Family family = matcher.group(2).equals("publish") ? Family.PUBLISH : Family.END_TO_END;
    double value = Double.parseDouble(matcher.group(3));
    double unitNanos =
        switch (matcher.group(4)) {
          case "us" -> 1e3;
          case "ms" -> 1e6;
          default -> 1e9;
        };
    long limit = Math.round(value * unitNanos);
    if (limit <= 0) {
      throw new BadInputException("--slo: the limit must be above 0, got '" + text + "'");
    }
    return new LatencyTarget(family, percentile, limit);
  }

  /** As the user would write it, e.g. {@code p99 end-to-end <= 10ms}. */
  public String describe() {
    return "p" + trim(percentile) + " " + family.label() + " <= " + trim(limitNanos / 1e6) + "ms";
  }

  private static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
