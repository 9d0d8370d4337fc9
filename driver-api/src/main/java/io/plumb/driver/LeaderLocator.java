package io.plumb.driver;

import java.util.Optional;

/**
 * Optional capability of a {@link BenchmarkDriver}: which node of the cluster leads a topic right
 * now, so that a fault plan can aim at {@code target: leader} (and {@code followers}). A driver
 * that cannot tell does not implement it, and plans naming the leader are refused before any load.
 *
 * <p>The framework asks at the moment a fault is applied (the leader may have moved since the run
 * started) and matches the answer against the local cluster's state files ({@code
 * .plumb/<broker>/nodes/<n>/node.env}): a node is the leader when the answer equals its {@code
 * NAME} or is a {@code host:port} whose port is one of its {@code PORTS}.
 */
public interface LeaderLocator {

  /**
   * The node leading {@code topic} now, as the broker names it: its node name (for example {@code
   * rabbit@host}, a NATS server name, a Kafka node id) or a {@code host:port} it listens on.
   *
   * @return empty while the broker names no leader (an election under way)
   */
  Optional<String> leaderOf(String topic) throws Exception;

  /**
   * What "leader" means for this broker, in a few words for the result and the console: for example
   * "leader of partition 0", "quorum queue leader", "primary".
   */
  String leaderMeaning();
}
