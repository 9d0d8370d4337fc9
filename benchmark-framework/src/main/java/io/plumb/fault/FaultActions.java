package io.plumb.fault;

import java.util.ArrayList;
import java.util.List;

/**
 * What a fault does to its nodes and how it is undone: freezes, kills, stops, power losses and
 * network cuts, each recorded as it takes effect, so that a fault that fails partway is undone
 * exactly as far as it went. {@link FaultSchedule} decides when.
 */
final class FaultActions {
  private final LocalCluster cluster;
  private final NodeControl control;

  FaultActions(LocalCluster cluster) {
    this.cluster = cluster;
    this.control = new NodeControl(cluster);
  }

  /**
   * What of a fault has taken effect: the nodes it froze, cut off or took down, and its cuts.
   * Filled step by step, so that when a step fails it holds exactly what must be undone.
   */
  record Applied(List<ClusterNode> nodes, List<NetworkCut> cuts) {
    Applied() {
      this(new ArrayList<>(), new ArrayList<>());
    }

    boolean nothing() {
      return nodes.isEmpty() && cuts.isEmpty();
    }

    List<String> names() {
      return nodes.stream().map(ClusterNode::name).toList();
    }
  }

  /** Applies {@code spec} to {@code hit}, adding to {@code applied} each step that took effect. */
  void apply(FaultSpec spec, List<ClusterNode> hit, Applied applied) {
    try {
      // Kills land on every node hit at one instant; a power loss drops unsynced data only after
      // every one of them is dead.
      switch (spec.action()) {
        case POWER_LOSS -> control.powerLoss(hit);
        case KILL -> control.kill(hit);
        case RESTART -> hit.forEach(control::stop);
        case FREEZE ->
            hit.forEach(
                node -> {
                  control.freeze(node);
                  applied.nodes().add(node);
                });
        case ISOLATE, PARTITION ->
            hit.forEach(
                node -> {
                  applied.cuts().add(cut(node, spec));
                  applied.nodes().add(node);
                });
      }
    } finally {
      if (startsAgain(spec.action())) {
        // Every node down now was taken down by this fault, even one whose kill, stop or drop
        // reported a failure: each is started again. One still running is left alone, as a
        // second copy beside it would fight it for its ports and data.
        hit.stream().filter(node -> !node.running()).forEach(applied.nodes()::add);
      }
    }
  }

  /**
   * Undoes every step in {@code applied}, each tried even when one before it failed, so that one
   * node that will not start again leaves no other down, frozen or cut off; returns the failures.
   */
  List<String> undo(FaultSpec spec, Applied applied) {
    List<String> problems = new ArrayList<>();
    for (NetworkCut cut : applied.cuts()) {
      attempt(problems, cut::heal);
    }
    for (ClusterNode node : applied.nodes()) {
      switch (spec.action()) {
        case FREEZE -> attempt(problems, () -> control.thaw(node));
        case KILL, RESTART, POWER_LOSS -> attempt(problems, () -> control.start(node));
        case ISOLATE, PARTITION -> {}
      }
    }
    return problems;
  }

  /** The word for an undone fault of {@code spec}'s action, for the console. */
  static String undoneWord(FaultSpec spec) {
    return switch (spec.action()) {
      case FREEZE -> "thawed";
      case KILL, RESTART, POWER_LOSS -> "started again";
      case ISOLATE, PARTITION -> "reconnected";
    };
  }

  private static boolean startsAgain(FaultAction action) {
    return switch (action) {
      case KILL, RESTART, POWER_LOSS -> true;
      case FREEZE, ISOLATE, PARTITION -> false;
    };
  }

  private NetworkCut cut(ClusterNode node, FaultSpec spec) {
    String table = "plumb_fault_" + spec.index() + "_" + node.name().replaceAll("\\W", "_");
    return spec.action() == FaultAction.ISOLATE
        ? NetworkCut.isolate(table, node)
        : NetworkCut.partition(
            table,
            node,
            cluster.nodes().stream().filter(n -> !n.name().equals(node.name())).toList());
  }

  private static void attempt(List<String> problems, Runnable step) {
    try {
      step.run();
    } catch (FaultException e) {
      problems.add(e.getMessage());
    }
  }
}
