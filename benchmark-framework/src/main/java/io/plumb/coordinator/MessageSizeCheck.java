package io.plumb.coordinator;

import io.plumb.driver.BrokerFactNames;
import io.plumb.input.BadInputException;
import io.plumb.message.HeaderPlacement;
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
    // A header in the broker's metadata counts against the same limit (NATS's max_payload counts
    // the header block, Kafka's max.request.size the record headers): the body has that much less.
    String headerShare = "";
    if (run.findings().headerPlacement() == HeaderPlacement.METADATA) {
      long metadataBytes = wholeOrZero(facts.get(BrokerFactNames.HEADER_METADATA_BYTES));
      limit -= metadataBytes;
      headerShare =
          metadataBytes == 0
              ? ""
              : String.format(
                  " (less the %d bytes of Plumb's header in its metadata)", metadataBytes);
    }
    if (size > limit) {
      throw new BadInputException(
          String.format(
              "%s: field 'messageSize': %,d bytes is more than %s (%s) can send as configured,"
                  + " %,d bytes%s: %s",
              run.workload().file(),
              size,
              run.findings().driverName(),
              run.driverFile(),
              limit,
              headerShare,
              facts.getOrDefault(BrokerFactNames.MAX_MESSAGE_BYTES_LIMIT, "the driver's limit")));
    }
  }

  /** A driver's malformed fact is not the user's input error: it counts as nothing. */
  private static long wholeOrZero(String value) {
    try {
      return value == null ? 0 : Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
