package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.Connection;
import io.nats.client.Nats;
import io.plumb.testkit.Leaders;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link NatsBenchmarkDriver#locate} ({@code leader}) on the real 3-node cluster ({@code
 * deploy/local/nats.sh start --nodes 3}, run by the {@code cluster} Maven profile only): it names
 * the server that leads the topic's stream, as the cluster itself says, and follows the leadership
 * when that server is stopped. The stopped server is started again, so the cluster is whole when
 * the test ends.
 */
class NatsLeaderClusterTest {
  private static final Path SCRIPT = Path.of("../deploy/local/nats.sh");
  private static final Set<String> NODES = Set.of("n1", "n2", "n3");

  @Test
  void namesTheStreamLeaderAndFollowsItWhenThatServerStops() throws Exception {
    String topic = "plumb-leader-" + System.nanoTime();
    NatsBenchmarkDriver driver = new NatsBenchmarkDriver();
    driver.initialize(
        DriverSettingsReader.config(Path.of("nats-jetstream-replicated.yaml"), Map.of()));
    String stopped = null;
    try (driver;
        Connection admin = Nats.connect("nats://127.0.0.1:4222")) {
      driver.createTopic(topic, 1).get(30, TimeUnit.SECONDS);
      assertEquals("stream leader", driver.targets().get("leader"));

      String leader = Leaders.awaitOther(driver, topic, null, Duration.ofSeconds(30));
      assertTrue(NODES.contains(leader), "leader " + leader + " is one of " + NODES);
      // The same answer as an independent connection reads from the cluster.
      assertEquals(
          leader,
          admin
              .jetStreamManagement()
              .getStreamInfo(Subjects.name(topic))
              .getClusterInfo()
              .getLeader());

      stopped = leader;
      script("stop-node", leader.substring(1));
      String next = Leaders.awaitOther(driver, topic, leader, Duration.ofSeconds(30));
      assertNotEquals(leader, next);
      assertTrue(NODES.contains(next), "new leader " + next + " is one of " + NODES);

      script("start-node", stopped.substring(1));
      stopped = null;
      driver.deleteTopics(java.util.List.of(topic)).get(30, TimeUnit.SECONDS);
    } finally {
      if (stopped != null) {
        script("start-node", stopped.substring(1));
      }
    }
  }

  private static void script(String command, String node) throws Exception {
    Process p =
        new ProcessBuilder(SCRIPT.toString(), command, node)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), command + " " + node + " finished");
    assertEquals(0, p.exitValue(), SCRIPT + " " + command + " " + node);
  }
}
