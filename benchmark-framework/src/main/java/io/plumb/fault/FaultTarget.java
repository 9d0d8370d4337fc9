package io.plumb.fault;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which node or nodes a fault hits, resolved at the moment it is applied: a node named by the role
 * it plays for the run's topic (asked of the broker: leader, primary, broker-owner, bookie), every
 * node but the one its leader or primary names ("followers"), every node ("all"), a random node, or
 * one node by its number or name. Roles are named by what they are because "leader" means different
 * things per broker.
 *
 * @param node the node's name for {@link Kind#NODE} (e.g. "2", "broker"); empty otherwise
 */
public record FaultTarget(Kind kind, Optional<String> node) {
  public enum Kind {
    /** The replica that orders writes; for Pulsar the broker that owns the topic. */
    LEADER(true),
    /** The server that takes writes and that its replicas copy (Redis). */
    PRIMARY(true),
    /** The broker serving the topic (Pulsar). */
    BROKER_OWNER(true),
    /** A bookie of the ensemble writing the topic's current ledger (Pulsar). */
    BOOKIE(true),
    /** Every numbered node but the one the driver's leader (else primary) names. */
    FOLLOWERS(false),
    /** Every node of the cluster at the same instant: a rack or a datacenter losing power. */
    ALL(false),
    RANDOM(false),
    NODE(false);

    private final boolean role;

    Kind(boolean role) {
      this.role = role;
    }

    /** As plans write it: "leader", "broker-owner", ... */
    public String word() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  static final String ALLOWED =
      Arrays.stream(Kind.values())
              .filter(k -> k != Kind.NODE)
              .map(Kind::word)
              .collect(Collectors.joining(" | "))
          + " | node N (a node number or name)";

  static Optional<FaultTarget> parse(String text) {
    String trimmed = text.trim();
    for (Kind kind : Kind.values()) {
      if (kind != Kind.NODE && kind.word().equals(trimmed)) {
        return Optional.of(new FaultTarget(kind, Optional.empty()));
      }
    }
    String[] words = trimmed.split("\\s+");
    return words.length == 2 && words[0].equals("node") && words[1].matches("[A-Za-z0-9_.-]+")
        ? Optional.of(new FaultTarget(Kind.NODE, Optional.of(words[1])))
        : Optional.empty();
  }

  /** {@code words} in the order of {@link Kind} (leader, primary, ...), unknown ones last. */
  static List<String> roleOrder(Collection<String> words) {
    List<String> ordered = new ArrayList<>(words);
    ordered.sort(
        Comparator.comparingInt(
            (String word) ->
                Arrays.stream(Kind.values())
                    .filter(k -> k.word().equals(word))
                    .mapToInt(Kind::ordinal)
                    .findFirst()
                    .orElse(Integer.MAX_VALUE)));
    return ordered;
  }

  /** Whether resolving this target needs the driver to name a node (a role, or followers). */
  public boolean needsDriver() {
    return kind.role || kind == Kind.FOLLOWERS;
  }

  /**
   * The role word the driver is asked for: the target's own, or for followers the driver's first.
   */
  Optional<String> roleWord() {
    return kind.role ? Optional.of(kind.word()) : Optional.empty();
  }

  @Override
  public String toString() {
    return kind == Kind.NODE ? "node " + node.orElseThrow() : kind.word();
  }
}
