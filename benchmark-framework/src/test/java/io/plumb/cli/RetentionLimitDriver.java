package io.plumb.cli;

import io.plumb.driver.BrokerFactNames;
import io.plumb.worker.ForwardingLoopbackDriver;
import java.util.Map;

/**
 * The loopback driver reporting retention limits, as a driver whose topics discard their oldest
 * messages past a cap does (a Redis stream's MAXLEN, a JetStream stream's max_msgs and max_bytes).
 * Test code only.
 */
public final class RetentionLimitDriver extends ForwardingLoopbackDriver {
  static final long PER_PARTITION = 537;
  static final long PER_TOPIC = 1_074;
  static final long BYTES_PER_TOPIC = 107_401;
  static final String LIMIT_SETTING = "test caps; raise them with --driver-set cap=N";

  @Override
  public Map<String, String> brokerFacts() {
    return loopbackFactsWith(
        Map.of(
            BrokerFactNames.RETENTION_MESSAGES_PER_PARTITION,
            String.valueOf(PER_PARTITION),
            BrokerFactNames.RETENTION_MESSAGES_PER_TOPIC,
            String.valueOf(PER_TOPIC),
            BrokerFactNames.RETENTION_BYTES_PER_TOPIC,
            String.valueOf(BYTES_PER_TOPIC),
            BrokerFactNames.RETENTION_LIMIT,
            LIMIT_SETTING));
  }
}
