package io.plumb.compare;

import io.plumb.input.BadInputException;

/** {@code --margin 5%}: the smallest relative difference that matters, as a share (0.05). */
public final class MarginOption {
  private MarginOption() {}

  public static double parse(String option) {
    String text = option.trim();
    if (!text.endsWith("%")) {
      // A bare 0.05 is as likely a share (5%) as a percentage (0.05%), a hundredfold apart: every
      // verdict would turn on which was meant.
      throw new BadInputException(
          "--margin: give the percentage with its % sign, e.g. 5% or 2.5% (is '"
              + option
              + "' a share or a percentage?)");
    }
    String number = text.substring(0, text.length() - 1).trim();
    try {
      double percent = Double.parseDouble(number);
      if (percent > 0 && percent <= 100) {
        return percent / 100;
      }
    } catch (NumberFormatException e) {
      // falls through to the one-line error
    }
    throw new BadInputException(
        "--margin: expected a percentage above 0 and at most 100, e.g. 5% or 2.5%, got '"
            + option
            + "'");
  }
}
