package io.plumb.fault;

import io.plumb.input.BadInputException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A fault plan checked against the cluster and the driver before any load: each refusal is one line
 * naming the plan file, the entry and the field. Besides what the plan could not know (a cluster of
 * one node, a node that does not exist or is not running, a time past the measured phase, a target
 * the driver cannot name), it proves that network cuts will bite: each node a cut may hit runs in
 * the cgroup its state file records, and a probe cut really drops a connection.
 */
record FaultPreflight(FaultPlan plan, LocalCluster cluster, LeaderSource leaders) {
  void check(Duration measuredLength) {
    List<ClusterNode> numbered = cluster.numberedNodes();
    if (numbered.size() < 2) {
      throw new BadInputException(
          plan.file()
              + ": faults need a cluster, and "
              + cluster.broker()
              + " has "
              + (numbered.isEmpty() ? "no node recorded in " + cluster.stateDir() : "1 node")
              + ": "
              + cluster.startHint());
    }
    for (ClusterNode node : numbered) {
      if (!node.running()) {
        throw new BadInputException(
            plan.file()
                + ": "
                + cluster.broker()
                + " "
                + node
                + " is not running; start it with "
                + cluster.script()
                + " start-node "
                + node.name());
      }
    }
    Set<ClusterNode> toCut = new LinkedHashSet<>();
    for (FaultSpec spec : plan.faults()) {
      checkEntry(spec, measuredLength);
      if (spec.action().cutsNetwork()) {
        toCut.addAll(mayHit(spec));
      }
      if (spec.action().needsPowerLossLayer()) {
        checkLayers(spec);
      }
    }
    FaultSpec firstCut =
        plan.faults().stream().filter(f -> f.action().cutsNetwork()).findFirst().orElse(null);
    if (firstCut != null) {
      checkCuts(firstCut, toCut);
    }
  }

  private void checkEntry(FaultSpec spec, Duration measuredLength) {
    String where = plan.where(spec);
    if (spec.at().compareTo(measuredLength) >= 0) {
      throw new BadInputException(
          where
              + ": field 'at': "
              + Durations.text(spec.at())
              + " is past the end of the measured phase ("
              + Durations.text(measuredLength)
              + ")");
    }
    FaultTarget target = spec.target();
    if (target.kind() == FaultTarget.Kind.NODE
        && cluster.node(target.node().orElseThrow()).isEmpty()) {
      throw new BadInputException(
          where
              + ": field 'target': no "
              + target
              + " in the "
              + cluster.broker()
              + " cluster (its nodes: "
              + cluster.nodes().stream().map(ClusterNode::name).collect(Collectors.joining(", "))
              + ")");
    }
    Map<String, String> named = leaders.targets();
    boolean nameable =
        target.kind() == FaultTarget.Kind.FOLLOWERS
            ? named.containsKey("followers")
            : target.roleWord().map(named::containsKey).orElse(true);
    if (!nameable) {
      throw new BadInputException(
          where
              + ": field 'target': the "
              + cluster.broker()
              + " driver cannot name "
              + target
              + "; it can name: "
              + canName(named));
    }
  }

  /** "leader (leader of partition 0), followers, random, node N". */
  private static String canName(Map<String, String> named) {
    String roles =
        FaultTarget.roleOrder(named.keySet()).stream()
            .map(word -> word.equals("followers") ? word : word + " (" + named.get(word) + ")")
            .collect(Collectors.joining(", "));
    return (roles.isEmpty() ? "" : roles + ", ") + "random, node N";
  }

  /**
   * The nodes a fault may hit: its node; for a role resolved only when the fault is due, any node
   * (a Pulsar broker-owner is no numbered node); for followers and random, any numbered one.
   */
  private List<ClusterNode> mayHit(FaultSpec spec) {
    FaultTarget target = spec.target();
    if (target.kind() == FaultTarget.Kind.NODE) {
      return List.of(cluster.node(target.node().orElseThrow()).orElseThrow());
    }
    return target.roleWord().isPresent() || target.kind() == FaultTarget.Kind.ALL
        ? cluster.nodes()
        : cluster.numberedNodes();
  }

  /**
   * A power loss drops what its layer holds: without a layer under a node's data it would be a mere
   * kill, and the run would claim a durability it never tested. A node whose script recorded that
   * it keeps no data (a Pulsar broker) needs none: for it a power loss is a kill.
   */
  private void checkLayers(FaultSpec spec) {
    String where = plan.where(spec) + ": field 'action': " + spec.action().word();
    NodeControl control = new NodeControl(cluster);
    for (ClusterNode node : mayHit(spec)) {
      if (node.powerLossLayer().isEmpty() && node.keepsNoData()) {
        continue;
      }
      if (node.powerLossLayer().isEmpty()) {
        throw new BadInputException(
            where
                + " needs the power-loss layer under every node's data, and "
                + cluster.broker()
                + " "
                + node
                + " has none: start the cluster with "
                + cluster.script()
                + " start --nodes N --power-loss-layer");
      }
      try {
        control.checkLayer(node);
      } catch (FaultException e) {
        throw new BadInputException(where + ": " + e.getMessage());
      }
    }
  }

  private void checkCuts(FaultSpec spec, Set<ClusterNode> nodes) {
    String where = plan.where(spec) + ": field 'action': " + spec.action().word();
    Optional<String> why = NetworkCut.unsupported(cluster.nodes());
    if (why.isPresent()) {
      throw new BadInputException(where + " cannot be done on this machine: " + why.get());
    }
    for (ClusterNode node : nodes) {
      Optional<String> problem = CgroupMembership.problem(node).or(() -> probe(node));
      if (problem.isPresent()) {
        throw new BadInputException(where + " would cut nothing: " + problem.get());
      }
    }
  }

  private static Optional<String> probe(ClusterNode node) {
    try {
      return CutProbe.problem(node);
    } catch (FaultException e) {
      return Optional.of("a probe cut of " + node + " failed: " + e.getMessage());
    }
  }
}
