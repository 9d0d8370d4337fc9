package io.plumb.input;

/**
 * Input the user must fix: a workload, driver file or option that is wrong. The CLI prints the
 * message as one line and exits with status 2, so the message always names the file, the field and
 * what is allowed.
 */
public class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadInputException(String message) {
    super(message);
  }
}
