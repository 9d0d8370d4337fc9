package io.plumb.search;

import io.plumb.input.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code --rates} option: rates in messages per second, with k and M suffixes. */
public final class RateList {
  private static final double MAX_RATE = 1e9;

  private RateList() {}

  /**
   * Parses e.g. {@code 10k,50k,100k,200k,500k,1M} (k = 1,000, M = 1,000,000). Rates must be above 0
   * and at most 1G msg/s; bad input is one line naming the option and the bad item.
   */
  public static List<Double> parse(String text) {
    List<Double> rates = new ArrayList<>();
    for (String raw : text.split(",", -1)) {
      String item = raw.trim();
      rates.add(parseOne(item, text));
    }
    return List.copyOf(rates);
  }

  private static double parseOne(String item, String whole) {
    String lower = item.toLowerCase(Locale.ROOT);
    double multiplier = 1;
    String digits = item;
    if (lower.endsWith("k")) {
      multiplier = 1e3;
      digits = item.substring(0, item.length() - 1);
    } else if (item.endsWith("M")) {
      multiplier = 1e6;
      digits = item.substring(0, item.length() - 1);
    }
    double value;
    try {
      if (!digits.matches("\\d+(\\.\\d+)?")) {
        throw new NumberFormatException();
      }
      value = Double.parseDouble(digits) * multiplier;
    } catch (NumberFormatException e) {
      throw new BadInputException(
          "--rates: '"
              + item
              + "' is not a rate; expected comma-separated messages per second with optional k (thousand) or M (million), e.g. 10k,50k,100k,1M, got '"
              + whole
              + "'");
    }
    if (!(value > 0 && value <= MAX_RATE)) {
      throw new BadInputException(
          "--rates: '" + item + "' is out of range; each rate must be above 0 and at most 1000M");
    }
    return value;
  }
}
