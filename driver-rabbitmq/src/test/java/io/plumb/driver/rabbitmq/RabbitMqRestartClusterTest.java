package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.fault.ClusterNode;
import io.plumb.fault.LocalCluster;
import io.plumb.testkit.NodeKill;
import io.plumb.testkit.WholeCluster;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A whole-cluster restart on the local 3-node cluster ({@code deploy/local/rabbitmq.sh start
 * --nodes 3}; runs only with {@code -Pcluster}) whose first node's boot ends while the others wait
 * for it, as RabbitMQ 3.10's feature-flag sync with a peer still booting can end it: the start-node
 * that brings the last node launches the first again instead of waiting out its 180 s deadline for
 * tables that node would have served.
 */
class RabbitMqRestartClusterTest {
  private static final LocalCluster CLUSTER = LocalCluster.of("rabbitmq");

  @RegisterExtension
  static final WholeCluster CLUSTER_WHOLE = LocalRabbitMqCluster.WHOLE_AFTER_ALL_TESTS;

  @Test
  void aNodeWhoseBootEndsWhilePeersWaitIsLaunchedAgain() throws Exception {
    for (ClusterNode node : CLUSTER.numberedNodes()) {
      NodeKill.kill(node);
    }
    assertEquals(0, CLUSTER.numberedNodes().stream().filter(ClusterNode::running).count());
    LocalRabbitMqCluster.startNode("1");
    LocalRabbitMqCluster.startNode("2");

    Process last = LocalRabbitMqCluster.launch("start-node", "3");
    awaitStartupOf(node("1"), last);
    NodeKill.kill(node("1"));
    if (!last.waitFor(150, TimeUnit.SECONDS)) {
      last.destroyForcibly();
      fail("start-node 3 still waiting after 150 s");
    }
    String output = new String(last.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, last.exitValue(), output);
    assertTrue(
        output.contains("node 1 r1@localhost: its boot ended while its peers waited for it"),
        output);
    assertTrue(output.contains("launching it again"), output);
    LocalRabbitMqCluster.requireThreeNodes();
  }

  /** Waits until start-node's check that {@code node} started (rabbitmqctl await_startup) runs. */
  private static void awaitStartupOf(ClusterNode node, Process startNode) throws Exception {
    String name = node.values().get("NAME");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      boolean awaiting =
          ProcessHandle.allProcesses()
              .map(p -> String.join(" ", p.info().arguments().orElse(new String[0])))
              .anyMatch(args -> args.contains("await_startup") && args.contains(name));
      if (awaiting) {
        return;
      }
      if (!startNode.isAlive()) {
        fail("start-node 3 ended before it waited for " + name + ": exit " + startNode.exitValue());
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    fail("start-node 3 did not wait for " + name + " within 60 s");
  }

  private static ClusterNode node(String number) {
    return CLUSTER.node(number).orElseThrow();
  }
}
