package io.plumb.cli;

import io.plumb.input.BadInputException;
import io.plumb.load.Pacing;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** {@code --pacing}: a {@link Pacing} by its lower-case name. */
final class PacingOption {
  private PacingOption() {}

  static Pacing parse(String value) {
    for (Pacing pacing : Pacing.values()) {
      if (pacing.name().toLowerCase(Locale.ROOT).equals(value)) {
        return pacing;
      }
    }
    throw new BadInputException(
        "--pacing: expected "
            + Arrays.stream(Pacing.values())
                .map(p -> p.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(" or "))
            + ", got '"
            + value
            + "'");
  }
}
