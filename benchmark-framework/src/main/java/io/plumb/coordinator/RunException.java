package io.plumb.coordinator;

/** A run that could not complete; what it measured before failing is still written. */
public class RunException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RunException(String message) {
    super(message);
  }

  public RunException(String message, Throwable cause) {
    super(message, cause);
  }
}
