package io.plumb.fault;

/**
 * A fault could not be applied or undone: recorded in its outcome while the load goes on, and the
 * run then ends with {@link FaultFailures#EXIT_STATUS}.
 */
public final class FaultException extends RuntimeException {
  public FaultException(String message) {
    super(message);
  }
}
