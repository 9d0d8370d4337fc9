package io.plumb.cli;

import io.plumb.driver.BrokerFactNames;
import io.plumb.worker.ForwardingLoopbackDriver;
import java.util.Map;

/**
 * The loopback driver reporting a message size limit, as a driver whose client or broker has one
 * does. Test code only.
 */
public final class MessageLimitDriver extends ForwardingLoopbackDriver {
  static final int LIMIT = 64;
  static final String LIMIT_SETTING = "test limit 64; raise it with --driver-set limit=N";

  @Override
  public Map<String, String> brokerFacts() {
    return loopbackFactsWith(
        Map.of(
            BrokerFactNames.MAX_MESSAGE_BYTES,
            String.valueOf(LIMIT),
            BrokerFactNames.MAX_MESSAGE_BYTES_LIMIT,
            LIMIT_SETTING));
  }
}
