package io.plumb.driver.rabbitmq;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mirroring policies of one driver: one per group of topics named alike ({@code
 * plumb-<tag>-<n>} is one group per run), matching their queues, applied before the first of them
 * is declared and removed with the topics or when the driver closes, so that no policy outlives the
 * run and mirrors another run's queues.
 */
final class MirroringPolicies {
  private static final String NAME_PREFIX = "plumb-mirroring-";

  private final ManagementApi api;
  private final ClassicMirroring mirroring;
  // Policy name by the topic-name stem it matches.
  private final Map<String, String> applied = new ConcurrentHashMap<>();

  MirroringPolicies(ManagementApi api, ClassicMirroring mirroring) {
    this.api = api;
    this.mirroring = mirroring;
  }

  /** Applies the policy matching {@code topic}'s queues, once per group of topics. */
  void applyFor(String topic) throws IOException, InterruptedException {
    String stem = stem(topic);
    if (applied.containsKey(stem)) {
      return;
    }
    synchronized (applied) {
      if (applied.containsKey(stem)) {
        return;
      }
      String name = NAME_PREFIX + stem;
      Map<String, Object> policy = new LinkedHashMap<>();
      policy.put("pattern", pattern(topic));
      policy.put("definition", mirroring.policyDefinition());
      policy.put("apply-to", "queues");
      // Above any policy an operator left at the default priority, which would otherwise decide.
      policy.put("priority", 100);
      api.put(path(name), policy);
      applied.put(stem, name);
    }
  }

  /**
   * Removes the policies of these topics' groups (the whole run's, as the run deletes them all).
   */
  void removeFor(List<String> topics) throws IOException, InterruptedException {
    for (String stem : Set.copyOf(topics.stream().map(MirroringPolicies::stem).toList())) {
      String name = applied.remove(stem);
      if (name != null) {
        api.delete(path(name));
      }
    }
  }

  /** Removes every policy this driver applied. */
  void removeAll() throws IOException, InterruptedException {
    removeFor(List.copyOf(applied.keySet()));
  }

  /**
   * The topic name without its trailing {@code -<n>}: the run's topics {@code plumb-<tag>-0, -1,
   * ...} share {@code plumb-<tag>-}; a topic named otherwise is its own stem.
   */
  static String stem(String topic) {
    int end = topic.length();
    while (end > 0 && Character.isDigit(topic.charAt(end - 1))) {
      end--;
    }
    return end < topic.length() && end > 0 && topic.charAt(end - 1) == '-'
        ? topic.substring(0, end)
        : topic;
  }

  /**
   * The policy's regular expression for the queues of {@code topic}'s group: {@code
   * <stem><n>.<anything>}, or {@code <topic>.<anything>} for a topic that is its own stem, the
   * name's characters taken literally.
   */
  static String pattern(String topic) {
    String stem = stem(topic);
    StringBuilder regex = new StringBuilder("^");
    for (char c : stem.toCharArray()) {
      if ("\\^$.|?*+()[]{}".indexOf(c) >= 0) {
        regex.append('\\');
      }
      regex.append(c);
    }
    return regex.append(stem.equals(topic) ? "" : "[0-9]+").append("\\.").toString();
  }

  private String path(String name) {
    return "policies/" + api.vhostPath() + "/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
  }
}
