package io.plumb.driver;

import java.util.Map;
import java.util.Optional;

/**
 * A {@link LeaderLocator} for a driver that names one role itself, beside {@code followers} (which
 * the framework resolves): it says what the role is called and means, and which node holds it for a
 * topic; {@link #targets} and {@link #locate} follow from that.
 */
public interface SingleRoleLocator extends LeaderLocator {

  /**
   * The role's target word and what it means for this broker, for {@link #targets}.
   *
   * @param word the target word, e.g. {@code leader}
   * @param meaning what the role is for this broker, e.g. "stream leader"
   * @param followers what {@code followers} are for this broker, e.g. "servers but the stream
   *     leader"
   */
  record Role(String word, String meaning, String followers) {}

  /** The role this driver names. */
  Role role();

  /**
   * The node holding {@link #role} for {@code topic} now, as {@link #locate} answers it.
   *
   * @return empty while the broker names none (an election under way)
   */
  Optional<String> leaderOf(String topic) throws Exception;

  @Override
  default Map<String, String> targets() {
    Role role = role();
    return Map.of(role.word(), role.meaning(), "followers", role.followers());
  }

  /**
   * {@link #leaderOf} for {@link #role}'s word; any other word is refused, since the framework only
   * asks for the words {@link #targets} lists ({@code followers} it resolves itself).
   */
  @Override
  default Optional<String> locate(String target, String topic) throws Exception {
    if (!target.equals(role().word())) {
      throw new IllegalArgumentException("this driver names no " + target);
    }
    return leaderOf(topic);
  }
}
