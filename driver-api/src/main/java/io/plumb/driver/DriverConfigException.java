package io.plumb.driver;

/**
 * Bad driver configuration. The framework prints the message as one line and exits with status 2,
 * so the message names the file, the field and what is allowed.
 */
public class DriverConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  public DriverConfigException(String message) {
    super(message);
  }
}
