package io.plumb.fault;

import java.util.Optional;

/**
 * Which node or nodes a fault hits, resolved at the moment it is applied: the leader (asked of the
 * broker), every node but the leader, a random node, or one node by its number or name.
 *
 * @param node the node's name for {@link Kind#NODE} (e.g. "2", "broker"); empty otherwise
 */
public record FaultTarget(Kind kind, Optional<String> node) {
  public enum Kind {
    LEADER,
    FOLLOWERS,
    RANDOM,
    NODE
  }

  static final String ALLOWED = "leader | followers | random | node N (a node number or name)";

  static Optional<FaultTarget> parse(String text) {
    String trimmed = text.trim();
    return switch (trimmed) {
      case "leader" -> Optional.of(new FaultTarget(Kind.LEADER, Optional.empty()));
      case "followers" -> Optional.of(new FaultTarget(Kind.FOLLOWERS, Optional.empty()));
      case "random" -> Optional.of(new FaultTarget(Kind.RANDOM, Optional.empty()));
      default -> {
        String[] words = trimmed.split("\\s+");
        yield words.length == 2 && words[0].equals("node") && words[1].matches("[A-Za-z0-9_.-]+")
            ? Optional.of(new FaultTarget(Kind.NODE, Optional.of(words[1])))
            : Optional.empty();
      }
    };
  }

  /** Whether resolving this target needs the driver to name the leader. */
  public boolean needsLeader() {
    return kind == Kind.LEADER || kind == Kind.FOLLOWERS;
  }

  @Override
  public String toString() {
    return kind == Kind.NODE ? "node " + node.orElseThrow() : kind.name().toLowerCase();
  }
}
