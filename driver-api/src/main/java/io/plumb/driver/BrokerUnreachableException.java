package io.plumb.driver;

/**
 * The broker did not answer at the address the driver file gives. {@link
 * BenchmarkDriver#initialize} throws it when its first contact fails, whatever the client library
 * raised, so that every driver ends the same way: one line naming the file, the address tried and
 * how to start the local broker or point elsewhere, and exit status 3.
 */
public class BrokerUnreachableException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * @param file the driver file whose address was tried
   * @param broker the broker's name as users know it ("Kafka", "NATS")
   * @param address what was tried, as the file or an override gives it
   * @param failure what happened, in a few words ("no answer within 15 s", "connection refused")
   * @param startLocal the command that starts the local broker ("deploy/local/kafka.sh start")
   * @param pointElsewhere how to name another address ("--driver-set bootstrap.servers=HOST:PORT")
   */
  public BrokerUnreachableException(
      String file,
      String broker,
      String address,
      String failure,
      String startLocal,
      String pointElsewhere) {
    super(
        file
            + ": "
            + broker
            + " at "
            + address
            + " is unreachable ("
            + failure
            + "); start the local one with "
            + startLocal
            + ", or point elsewhere with "
            + pointElsewhere);
  }

  /** Why the client library failed, in one line: its message, or its type when it has none. */
  public static String describe(Throwable failure) {
    Throwable deepest = failure;
    while (deepest.getCause() != null && deepest.getCause() != deepest) {
      deepest = deepest.getCause();
    }
    String message = deepest.getMessage();
    String text =
        message == null || message.isBlank() ? deepest.getClass().getSimpleName() : message;
    return text.replaceAll("\\s+", " ").trim();
  }
}
