package io.plumb.driver.nats;

import io.plumb.driver.ClientWindow;
import java.util.Map;

/**
 * The NATS driver's send and receive windows, from the file's settings. JetStream: a producer has
 * at most {@code maxOutstandingPublishes} publishes awaiting their ack (its own bound: jnats sets
 * none); a pull consumer asks for {@code pullBatchSize} messages at a time and acknowledges each
 * after the listener, and the server stops at the durable's {@code maxAckPending}, shared by the
 * subscription's consumers; a push consumer has only the latter. Core NATS acknowledges nothing in
 * either direction, so neither side has a window.
 */
final class NatsWindows {

  private NatsWindows() {}

  static Map<String, String> facts(NatsDriverConfig config) {
    return ClientWindow.facts(send(config), receive(config));
  }

  static ClientWindow send(NatsDriverConfig config) {
    if (config.mode() == NatsDriverConfig.Mode.CORE) {
      return ClientWindow.unbounded(
          "mode core: a publish has no acknowledgement, a send completes once the client queued"
              + " it; set --driver-set mode=jetstream for acknowledged publishes");
    }
    return ClientWindow.messages(
        config.maxOutstandingPublishes(),
        "maxOutstandingPublishes "
            + config.maxOutstandingPublishes()
            + " per producer (send() waits for an ack beyond it); set it with --driver-set"
            + " maxOutstandingPublishes=N");
  }

  static ClientWindow receive(NatsDriverConfig config) {
    if (config.mode() == NatsDriverConfig.Mode.CORE) {
      return ClientWindow.unbounded(
          "mode core: nothing is acknowledged and the server never waits for a consumer; past"
              + " subscriberPendingBytes "
              + config.subscriberPendingBytes()
              + " buffered bytes the client drops messages");
    }
    int ackPending = config.maxAckPending();
    if (config.consumerType() == NatsDriverConfig.ConsumerType.PULL
        && config.pullBatchSize() < ackPending) {
      return ClientWindow.messages(
          config.pullBatchSize(),
          "pullBatchSize "
              + config.pullBatchSize()
              + " messages per pull, within maxAckPending "
              + ackPending
              + " per subscription; set it with --driver-set pullBatchSize=N");
    }
    return ClientWindow.messages(
        ackPending,
        "maxAckPending "
            + ackPending
            + " per subscription's durable, shared by its consumers"
            + (config.consumerType() == NatsDriverConfig.ConsumerType.PULL
                ? " (below pullBatchSize " + config.pullBatchSize() + ")"
                : " (push: the server delivers until it is reached)")
            + "; set it with --driver-set maxAckPending=N");
  }
}
