package io.plumb.coordinator;

import io.plumb.driver.BrokerFactNames;
import io.plumb.input.BadInputException;
import io.plumb.message.HeaderPlacement;
import io.plumb.message.MessageHeader;
import io.plumb.workload.Workload;
import java.util.Map;

/**
 * Decides, before any topic exists, where the run's header travels (see {@link HeaderPlacement}),
 * and refuses a run whose messages need the broker's metadata when the driver carries the header in
 * none. The choice is recorded beside the broker's facts, so every result says where the header
 * went and what it cost on the wire.
 */
final class HeaderChoice {
  private HeaderChoice() {}

  static HeaderPlacement choose(RunContext run, Map<String, String> facts) {
    Workload workload = run.workload();
    HeaderPlacement placement =
        HeaderPlacement.forSize(workload.headerIn(), workload.messageSize());
    if (placement == HeaderPlacement.METADATA
        && !facts.containsKey(BrokerFactNames.HEADER_METADATA)) {
      String driver = run.findings().driverName() + " (" + run.driverFile() + ")";
      if (workload.headerIn().isPresent()) {
        throw new BadInputException(
            String.format(
                "%s: field 'headerIn': metadata, but %s carries Plumb's header in no per-message"
                    + " metadata; use payload (or leave headerIn out)",
                workload.file(), driver));
      }
      throw new BadInputException(
          String.format(
              "%s: field 'messageSize': %d bytes cannot hold Plumb's %d-byte header, and %s"
                  + " carries it in no per-message metadata; use a messageSize of %d or more",
              workload.file(),
              workload.messageSize(),
              MessageHeader.SIZE,
              driver,
              MessageHeader.SIZE));
    }
    return placement;
  }

  /** The facts that record {@code placement}, for the result. */
  static Map<String, String> facts(
      HeaderPlacement placement, int messageSize, Map<String, String> driverFacts) {
    if (placement == HeaderPlacement.PAYLOAD) {
      return Map.of(
          HeaderPlacement.FACT,
          placement.fieldValue(),
          HeaderPlacement.DETAIL_FACT,
          String.format(
              "the first %d bytes of each %,d-byte payload", MessageHeader.SIZE, messageSize));
    }
    String bytes = driverFacts.get(BrokerFactNames.HEADER_METADATA_BYTES);
    return Map.of(
        HeaderPlacement.FACT,
        placement.fieldValue(),
        HeaderPlacement.DETAIL_FACT,
        String.format(
            "%s, %s per message on the wire beside each %,d-byte payload",
            driverFacts.get(BrokerFactNames.HEADER_METADATA),
            bytes == null ? "an unreported number of bytes" : "+" + bytes + " bytes",
            messageSize));
  }
}
