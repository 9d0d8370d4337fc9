package io.plumb.coordinator;

import io.plumb.driver.BrokerFactNames;
import io.plumb.input.BadInputException;
import java.util.Map;

/**
 * Refuses, before any topic exists, a workload whose messages are larger than the driver says it
 * can send ({@link BrokerFactNames#MAX_MESSAGE_BYTES}): otherwise every send would fail in the
 * middle of the run with the client's exception.
 */
final class MessageSizeCheck {

  private MessageSizeCheck() {}

  static void check(RunContext run, Map<String, String> facts) {
    String max = facts.get(BrokerFactNames.MAX_MESSAGE_BYTES);
    if (max == null) {
      return;
    }
    long limit;
    try {
      limit = Long.parseLong(max.trim());
    } catch (NumberFormatException e) {
      return; // a driver's malformed fact is not the user's input error
    }
    int size = run.workload().messageSize();
    if (size > limit) {
      throw new BadInputException(
          String.format(
              "%s: field 'messageSize': %,d bytes is more than %s (%s) can send as configured,"
                  + " %,d bytes: %s",
              run.workload().file(),
              size,
              run.driverName(),
              run.driverFile(),
              limit,
              facts.getOrDefault(BrokerFactNames.MAX_MESSAGE_BYTES_LIMIT, "the driver's limit")));
    }
  }
}
