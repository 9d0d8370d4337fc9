package io.plumb.input;

/**
 * The broker a driver file names did not answer. Found before anything is measured, like bad input,
 * and told the same way, as one line; the CLI exits with status 3 so that scripts can tell "start
 * the broker" apart from "fix the file" (status 2).
 */
public class UnreachableBrokerException extends BadInputException {
  private static final long serialVersionUID = 1L;

  public static final int EXIT_STATUS = 3;

  public UnreachableBrokerException(String message) {
    super(message);
  }
}
