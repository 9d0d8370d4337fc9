package io.plumb.fault;

import java.util.Map;
import java.util.Optional;

/**
 * Asks the broker, through the run's driver, which node plays a role for the run's topic: the
 * targets a fault plan can name by what they are ({@code leader}, {@code primary}, {@code
 * broker-owner}, {@code bookie}; see {@code io.plumb.driver.LeaderLocator}).
 */
public interface LeaderSource {
  /**
   * The target words the driver can name, each with what it means for this broker ({@code
   * followers} is relative to its leader, else its primary). Empty when the driver can name none.
   */
  Map<String, String> targets();

  /** The broker's name for the node {@code target} names now; empty during an election. */
  Optional<String> locate(String target);
}
