package io.plumb.repeat;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of repeated runs: N rounds, each running every configuration once, forward in odd
 * rounds and backward in even ones (A B, B A, A B, ...), so a drift of the host over time hits
 * every configuration alike and none always runs first after the previous one's load.
 */
public final class RepeatOrder {
  private RepeatOrder() {}

  /**
   * @return for each run in order, the index of the configuration it runs
   */
  public static List<Integer> of(int configurations, int rounds) {
    List<Integer> order = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < configurations; i++) {
        order.add(round % 2 == 0 ? i : configurations - 1 - i);
      }
    }
    return List.copyOf(order);
  }
}
