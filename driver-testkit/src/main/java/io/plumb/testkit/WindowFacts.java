package io.plumb.testkit;

import io.plumb.driver.BrokerFactNames;
import java.nio.file.Path;
import java.util.Map;

/**
 * The send and receive windows a run's clients ran with, as its result reports them among the
 * broker facts: what a reader compares two runs' flow control by, so an override must show there.
 */
public final class WindowFacts {

  private WindowFacts() {}

  /**
   * A {@link SmokeRun#standard} run of {@code driverFile} with {@code overrides} delivers, and its
   * result reports {@code sendWindow} and {@code receiveWindow} (over the run's 3 partitions where
   * a driver counts the receive window per partition).
   *
   * @return the run's broker facts, for a driver's further checks
   * @throws AssertionError otherwise
   */
  public static Map<String, String> assertReported(
      Path driverFile,
      Map<String, String> overrides,
      Path scratch,
      String sendWindow,
      String receiveWindow) {
    Map<String, String> facts =
        SmokeRun.standard().assertDelivers(driverFile, overrides, scratch).brokerFacts();
    assertFact(facts, BrokerFactNames.SEND_WINDOW, sendWindow);
    assertFact(facts, BrokerFactNames.RECEIVE_WINDOW, receiveWindow);
    return facts;
  }

  private static void assertFact(Map<String, String> facts, String name, String expected) {
    if (!expected.equals(facts.get(name))) {
      throw new AssertionError(
          name + " is '" + facts.get(name) + "', not '" + expected + "', in " + facts);
    }
  }
}
