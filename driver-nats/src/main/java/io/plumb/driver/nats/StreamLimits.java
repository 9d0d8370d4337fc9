package io.plumb.driver.nats;

import io.plumb.driver.BrokerFactNames;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JetStream topic's retention limits as broker facts: its stream ({@code discard old}) drops its
 * oldest messages past {@code maxBytes} or {@code maxMessages}, received or not, so a backlog
 * workload whose backlog would pass them is refused before any topic exists (the framework checks
 * the facts) rather than counting what the stream dropped as lost.
 */
final class StreamLimits {

  private StreamLimits() {}

  /** The limits the file sets (-1, none, reports nothing); empty for core NATS. */
  static Map<String, String> facts(NatsDriverConfig config) {
    Map<String, String> facts = new LinkedHashMap<>();
    if (config.mode() != NatsDriverConfig.Mode.JETSTREAM
        || (config.maxBytes() < 0 && config.maxMessages() < 0)) {
      return facts;
    }
    if (config.maxBytes() > 0) {
      facts.put(BrokerFactNames.RETENTION_BYTES_PER_TOPIC, String.valueOf(config.maxBytes()));
    }
    if (config.maxMessages() > 0) {
      facts.put(BrokerFactNames.RETENTION_MESSAGES_PER_TOPIC, String.valueOf(config.maxMessages()));
    }
    facts.put(
        BrokerFactNames.RETENTION_LIMIT,
        "maxBytes "
            + config.maxBytes()
            + ", maxMessages "
            + config.maxMessages()
            + " per stream (a topic); raise them with --driver-set maxBytes=N or maxMessages=N,"
            + " -1 for none (a 1 KiB message takes about 1,070 bytes in the file store)");
    return facts;
  }
}
