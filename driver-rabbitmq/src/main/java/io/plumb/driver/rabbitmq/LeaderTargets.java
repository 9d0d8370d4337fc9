package io.plumb.driver.rabbitmq;

import io.plumb.driver.LeaderLocator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The fault targets both RabbitMQ drivers name ({@link LeaderLocator}): {@code leader}, the node
 * leading the topic's first queue or stream, and {@code followers}, the other nodes. The role word
 * that {@link #of} lists is the one {@link #locate} answers for.
 */
final class LeaderTargets {

  private static final String LEADER = "leader";

  private LeaderTargets() {}

  /**
   * The targets, {@code leader} worded as what leads this driver's queues ({@code "stream
   * leader"}).
   */
  static Map<String, String> of(String leader) {
    return Map.of(LEADER, leader, "followers", "nodes but the " + leader);
  }

  /** {@link LeaderLocator#locate}: {@code leaderOf}'s answer for {@code leader}. */
  static Optional<String> locate(String target, Callable<Optional<String>> leaderOf)
      throws Exception {
    return LeaderLocator.locateOnly(LEADER, target, leaderOf);
  }
}
