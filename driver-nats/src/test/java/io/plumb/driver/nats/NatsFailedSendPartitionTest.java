package io.plumb.driver.nats;

import io.plumb.testkit.FailedSendPartition;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A JetStream send that jnats refuses at once names the partition it was routed to, as its core
 * NATS counterpart and an acknowledged send do: a failed send opens its partition's unavailability
 * window. Against the local server (deploy/local/nats.sh start); the refusal here is a body above
 * the server's max_payload, which jnats checks on the sending thread after the driver chose the
 * subject.
 */
class NatsFailedSendPartitionTest {
  private static final int ABOVE_MAX_PAYLOAD = 2 << 20;

  @Test
  void aJetStreamSendRefusedAtOnceNamesItsKeysPartition() throws Exception {
    try (NatsBenchmarkDriver driver = LocalNats.open("nats-jetstream.yaml")) {
      String topic = "plumb-failed-" + System.nanoTime();
      FailedSendPartition.assertNamed(driver, topic, ABOVE_MAX_PAYLOAD, Duration.ofSeconds(30));
    }
  }
}
