package io.plumb.fault;

/** A fault could not be applied or undone; recorded in its outcome, never fatal to the run. */
public final class FaultException extends RuntimeException {
  public FaultException(String message) {
    super(message);
  }
}
