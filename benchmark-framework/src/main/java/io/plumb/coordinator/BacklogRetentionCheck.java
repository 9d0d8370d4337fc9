package io.plumb.coordinator;

import io.plumb.driver.BrokerFactNames;
import io.plumb.input.BadInputException;
import io.plumb.workload.Workload;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Refuses, before any topic exists, a backlog workload whose backlog the driver's topics cannot
 * keep ({@link BrokerFactNames#RETENTION_MESSAGES_PER_PARTITION} and the others): a broker that
 * discards its oldest messages past a limit drops the oldest of the backlog, unread, and the run
 * would count them as lost, a loss of the file's settings rather than of the broker. The messages
 * received before the backlog are older still and go first, so only the backlog itself has to fit.
 */
final class BacklogRetentionCheck {

  private BacklogRetentionCheck() {}

  static void check(RunContext run, Map<String, String> facts) {
    Workload workload = run.workload();
    if (workload.consumerBacklogSizeGB() <= 0) {
      return;
    }
    // The backlog is summed over subscriptions; a topic stores each message once.
    long perTopic =
        ceilDiv(
            workload.backlogMessages(),
            (long) workload.subscriptionsPerTopic() * workload.topics());
    long perPartition = ceilDiv(perTopic, workload.partitionsPerTopic());
    long bytesPerTopic = perTopic * workload.messageSize();
    refuse(
        run,
        facts,
        BrokerFactNames.RETENTION_MESSAGES_PER_PARTITION,
        perPartition,
        false,
        "messages in each partition");
    refuse(
        run,
        facts,
        BrokerFactNames.RETENTION_MESSAGES_PER_TOPIC,
        perTopic,
        false,
        "messages in each topic");
    // Bodies that fill the limit exactly overflow it with the broker's own bytes per message.
    refuse(
        run,
        facts,
        BrokerFactNames.RETENTION_BYTES_PER_TOPIC,
        bytesPerTopic,
        true,
        "bytes of bodies in each topic");
  }

  /**
   * Refuses the run when the backlog's {@code needed} is more than the fact {@code name} allows (or
   * as much, when {@code reachingIsTooMuch}).
   */
  private static void refuse(
      RunContext run,
      Map<String, String> facts,
      String name,
      long needed,
      boolean reachingIsTooMuch,
      String what) {
    long limit = wholeOrNone(facts.get(name));
    if (limit < 0 || needed < limit || (needed == limit && !reachingIsTooMuch)) {
      return;
    }
    Workload workload = run.workload();
    throw new BadInputException(
        String.format(
            "%s: field 'consumerBacklogSizeGB': a backlog of %s GB keeps %,d %s, and %s (%s)"
                + " keeps %,d before the broker discards the oldest, which would count as lost: %s",
            workload.file(),
            formatGb(workload.consumerBacklogSizeGB()),
            needed,
            what,
            run.findings().driverName(),
            run.driverFile(),
            limit,
            facts.getOrDefault(BrokerFactNames.RETENTION_LIMIT, "the driver's limit")));
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  /** As the workload file has it: 10, 0.5, 0.0001. */
  private static String formatGb(double gb) {
    return new BigDecimal(Double.toString(gb)).stripTrailingZeros().toPlainString();
  }

  /** A driver's malformed or negative fact is not the user's input error: it counts as none. */
  private static long wholeOrNone(String value) {
    try {
      return value == null ? -1 : Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
