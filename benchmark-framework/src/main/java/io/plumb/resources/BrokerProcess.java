package io.plumb.resources;

import io.plumb.fault.ClusterNode;
import io.plumb.fault.LocalCluster;
import java.util.ArrayList;
import java.util.List;

/**
 * A broker process that a local deploy script started, named by its state file.
 *
 * @param label broker and node, e.g. "kafka/1" or "pulsar/broker"
 */
public record BrokerProcess(String label, long pid) {
  private static final List<String> BROKERS =
      List.of("kafka", "pulsar", "rabbitmq", "nats", "redis");

  /**
   * The running nodes of every broker whose {@code deploy/local} state this host has: the PIDs come
   * from the scripts' {@code node.env} files, never from matching process names.
   */
  public static List<BrokerProcess> running() {
    List<BrokerProcess> found = new ArrayList<>();
    for (String broker : BROKERS) {
      List<ClusterNode> nodes;
      try {
        nodes = LocalCluster.of(broker).nodes();
      } catch (RuntimeException unreadable) {
        continue; // a state directory we cannot read names no process to sample
      }
      for (ClusterNode node : nodes) {
        if (node.running()) {
          found.add(new BrokerProcess(broker + "/" + node.name(), node.pid().getAsLong()));
        }
      }
    }
    return List.copyOf(found);
  }
}
