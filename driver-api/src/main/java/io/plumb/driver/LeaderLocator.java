package io.plumb.driver;

import java.util.Map;
import java.util.Optional;

/**
 * Optional capability of a {@link BenchmarkDriver}: which node of the cluster plays a named role
 * for a topic right now, so that a fault plan can aim at it ({@code target: leader}, {@code
 * primary}, {@code broker-owner}, {@code bookie}, {@code followers}). Roles are named by what they
 * are, since "leader" means different things per broker: BookKeeper has no leader, and a Pulsar run
 * that killed a bookie must not read as comparable with a Kafka run that killed a partition leader.
 * A driver that cannot tell does not implement this interface, and plans naming a role are refused
 * before any load; a plan naming a role the driver does not list in {@link #targets} is refused
 * with the list it does.
 *
 * <p>The words:
 *
 * <ul>
 *   <li>{@code leader}: the replica that orders writes (Kafka partition leader, RabbitMQ quorum or
 *       stream leader, NATS stream leader); for Pulsar the broker that owns the topic;
 *   <li>{@code primary}: the server that takes writes and whose replicas copy it (Redis);
 *   <li>{@code broker-owner}: the broker serving the topic (Pulsar);
 *   <li>{@code bookie}: a bookie of the ensemble writing the topic's current ledger (Pulsar);
 *   <li>{@code followers}: every numbered node but the one the driver's {@code leader} (else {@code
 *       primary}) names. A driver lists it only where those nodes really replicate that one; it is
 *       resolved by the framework, so {@link #locate} is never asked for it.
 * </ul>
 *
 * <p>The framework asks at the moment a fault is applied (the role may have moved since the run
 * started) and matches the answer against the local cluster's state files ({@code
 * .plumb/<broker>/nodes/<n>/node.env}): a node is the one named when the answer equals its {@code
 * NAME} or is a {@code host:port} whose port is one of its {@code PORTS}.
 */
public interface LeaderLocator {

  /**
   * The target words this driver can name, each with what it means for this broker in a few words
   * for the result and the console: for example {@code leader -> "leader of partition 0"}, {@code
   * primary -> "primary"}.
   */
  Map<String, String> targets();

  /**
   * The node that {@code target} (one of {@link #targets}' words, never {@code followers}) names
   * for {@code topic} now, as the broker names it: its node name (for example {@code rabbit@host},
   * a NATS server name, a Kafka node id) or a {@code host:port} it listens on.
   *
   * @return empty while the broker names none (an election under way)
   */
  Optional<String> locate(String target, String topic) throws Exception;
}
