package io.plumb.fault;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What a fault does to a node, and what undoes it after the fault's duration. */
public enum FaultAction {
  /** SIGKILL; the node is started again (with its data) after the duration or at the run's end. */
  KILL(false),
  /** SIGSTOP, then SIGCONT after the duration: a long GC pause or a hung disk, as peers see it. */
  FREEZE(true),
  /** Cuts the node off from the other nodes and the clients; its process keeps running. */
  ISOLATE(true),
  /** Cuts the node off from the other nodes only: clients still reach it (a split brain). */
  PARTITION(true),
  /** A clean stop (SIGTERM, as an operator's restart), started again after the duration. */
  RESTART(false),
  /**
   * A power failure: SIGKILL, then the node's power-loss layer drops every write not yet made
   * durable (fsync), as losing the page cache would; started again after the duration with what
   * survived. Several nodes hit by one fault are all killed before any layer drops: one instant.
   */
  POWER_LOSS(false);

  private final boolean needsDuration;

  FaultAction(boolean needsDuration) {
    this.needsDuration = needsDuration;
  }

  /** Whether the plan must say when the action is undone: a node frozen for good is no test. */
  public boolean needsDuration() {
    return needsDuration;
  }

  /** Whether the action cuts network traffic (and so needs nftables and a cgroup per node). */
  public boolean cutsNetwork() {
    return this == ISOLATE || this == PARTITION;
  }

  /** Whether the nodes it hits need the power-loss layer under their data. */
  public boolean needsPowerLossLayer() {
    return this == POWER_LOSS;
  }

  /** As plans write it: "kill", "power-loss", ... */
  public String word() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static Optional<FaultAction> parse(String text) {
    return Arrays.stream(values()).filter(a -> a.word().equals(text)).findFirst();
  }

  static String allowed() {
    return String.join(" | ", Arrays.stream(values()).map(FaultAction::word).toList());
  }
}
