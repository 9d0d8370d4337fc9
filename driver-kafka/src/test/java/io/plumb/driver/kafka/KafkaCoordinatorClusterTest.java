package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.testkit.WholeCluster;
import io.plumb.worker.DriverSettingsReader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A consumer of {@code kafka-replicated.yaml} on the local 3-node cluster ({@code
 * deploy/local/kafka.sh start --nodes 3}; runs only with {@code -Pcluster}) keeps consuming when
 * the node coordinating its group is killed (SIGKILL): the client finds the group's new coordinator
 * by itself, every acknowledged message arrives, and no error reaches the framework.
 */
class KafkaCoordinatorClusterTest {
  private static final int RATE = 500;
  private static final long SECONDS_AFTER_KILL = 15;
  private static final long DELIVERY_WAIT_SECONDS = 60;

  @RegisterExtension static final WholeCluster CLUSTER = LocalKafkaCluster.WHOLE_AFTER_ALL_TESTS;

  @Test
  void consumerGoesOnWhenTheGroupCoordinatorIsKilled() throws Exception {
    long run = System.nanoTime();
    String topic = "plumb-test-coordinator-" + run;
    String group = "plumb-test-coordinator-group-" + run;
    Set<Long> received = ConcurrentHashMap.newKeySet();
    Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
    MessageListener listener =
        new MessageListener() {
          @Override
          public void received(byte[] payload, int partition) {
            received.add(ByteBuffer.wrap(payload).getLong());
          }

          @Override
          public void failed(Throwable error) {
            errors.add(error);
          }
        };
    String killed = null;
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver();
        Admin admin = LocalKafkaCluster.admin()) {
      driver.initialize(DriverSettingsReader.config(Path.of("kafka-replicated.yaml"), Map.of()));
      driver.createTopic(topic, 1).get(60, TimeUnit.SECONDS);
      BenchmarkConsumer consumer = driver.createConsumer(topic, group, listener).get();
      BenchmarkProducer producer = driver.createProducer(topic).get();

      long sequence = 0;
      sequence = produce(producer, sequence, 2, acknowledged);
      awaitDelivery(received, acknowledged, "before the kill");
      int coordinator =
          admin
              .describeConsumerGroups(List.of(group))
              .describedGroups()
              .get(group)
              .get(30, TimeUnit.SECONDS)
              .coordinator()
              .id();
      killed = LocalKafkaCluster.nodeNamed(String.valueOf(coordinator));
      long firstAfterKill = sequence;
      LocalKafkaCluster.kill(killed);

      sequence = produce(producer, sequence, SECONDS_AFTER_KILL, acknowledged);
      awaitDelivery(received, acknowledged, "after killing the coordinator, node " + killed);
      assertTrue(
          received.stream().anyMatch(s -> s >= firstAfterKill),
          "nothing sent after the kill was received");
      assertEquals(List.of(), List.copyOf(errors), "errors reported to the framework");
      consumer.close();
      producer.close();
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    } finally {
      if (killed != null) {
        LocalKafkaCluster.startNode(killed);
      }
    }
  }

  /** Sends at {@value #RATE} msg/s for {@code seconds}; returns the next sequence number. */
  private static long produce(
      BenchmarkProducer producer, long sequence, long seconds, Set<Long> acknowledged)
      throws InterruptedException {
    long end = sequence + seconds * RATE;
    for (; sequence < end; sequence++) {
      byte[] payload = ByteBuffer.allocate(64).putLong(sequence).array();
      producer.send(
          null,
          payload,
          sequence,
          (token, failure) -> {
            if (failure == null) {
              acknowledged.add(token);
            }
          });
      Thread.sleep(1000 / RATE);
    }
    return sequence;
  }

  /** Waits until every acknowledged message has been received. */
  private static void awaitDelivery(Set<Long> received, Set<Long> acknowledged, String when)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DELIVERY_WAIT_SECONDS);
    while (!received.containsAll(acknowledged) || acknowledged.isEmpty()) {
      if (System.nanoTime() > deadline) {
        fail(
            when
                + ": "
                + acknowledged.stream().filter(s -> !received.contains(s)).count()
                + " of "
                + acknowledged.size()
                + " acknowledged messages not received within "
                + DELIVERY_WAIT_SECONDS
                + " s");
      }
      Thread.sleep(100);
    }
  }
}
