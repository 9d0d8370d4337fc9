package io.plumb.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The targets and answers a one-role driver gets from SingleRoleLocator's defaults. */
class SingleRoleLocatorTest {

  /** A driver whose primary of every topic is n1. */
  private static final SingleRoleLocator PRIMARY_N1 =
      new SingleRoleLocator() {
        @Override
        public Role role() {
          return new Role("primary", "primary", "replicas of the primary");
        }

        @Override
        public Optional<String> leaderOf(String topic) {
          return Optional.of("n1");
        }
      };

  @Test
  void theTargetsAreTheRoleAndFollowersWithTheirMeanings() {
    assertEquals(
        Map.of("primary", "primary", "followers", "replicas of the primary"), PRIMARY_N1.targets());
  }

  @Test
  void locateAnswersTheRoleAndRefusesAnyOtherWord() throws Exception {
    assertEquals(Optional.of("n1"), PRIMARY_N1.locate("primary", "t"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PRIMARY_N1.locate("leader", "t"));
    assertEquals("this driver names no leader", e.getMessage());
  }
}
