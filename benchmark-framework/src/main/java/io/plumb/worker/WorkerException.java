package io.plumb.worker;

/** A worker could not do what the coordinator asked; the run fails with this message. */
public class WorkerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public WorkerException(String message, Throwable cause) {
    super(message, cause);
  }

  public WorkerException(String message) {
    super(message);
  }
}
