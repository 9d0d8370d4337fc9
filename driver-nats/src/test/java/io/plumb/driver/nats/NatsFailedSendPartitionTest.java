package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.testkit.Acknowledgements;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A JetStream send that jnats refuses at once names the partition it was routed to, as its core
 * NATS counterpart and an acknowledged send do: a failed send opens its partition's unavailability
 * window. Against the local server (deploy/local/nats.sh start); the refusal here is a body above
 * the server's max_payload, which jnats checks on the sending thread after the driver chose the
 * subject.
 */
class NatsFailedSendPartitionTest {
  private static final int PARTITIONS = 3;
  private static final int KEYS = 6;
  private static final int ABOVE_MAX_PAYLOAD = 2 << 20;

  @Test
  void aJetStreamSendRefusedAtOnceNamesItsKeysPartition() throws Exception {
    try (NatsBenchmarkDriver driver = LocalNats.open("nats-jetstream.yaml")) {
      String topic = "plumb-failed-" + System.nanoTime();
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      try (BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS)) {
        Acknowledgements acknowledged = new Acknowledgements(KEYS);
        Acknowledgements refused = new Acknowledgements(KEYS);
        for (int k = 0; k < KEYS; k++) {
          producer.send("key-" + k, new byte[100], k, acknowledged);
        }
        assertEquals(List.of(), acknowledged.await(Duration.ofSeconds(30)));
        for (int k = 0; k < KEYS; k++) {
          producer.send("key-" + k, new byte[ABOVE_MAX_PAYLOAD], k, refused);
        }
        List<String> problems = refused.await(Duration.ofSeconds(30));
        assertEquals(KEYS, problems.size(), "every oversized send fails: " + problems);
        for (int k = 0; k < KEYS; k++) {
          assertTrue(acknowledged.partitionOf(k) >= 0, "acknowledged send " + k);
          assertEquals(
              acknowledged.partitionOf(k),
              refused.partitionOf(k),
              "the refused send of key-" + k + " names its key's partition");
        }
      } finally {
        driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
      }
    }
  }
}
