package io.plumb.repeat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The caveat a comparison carries when its brokers ran on the load generator's host: Plumb then
 * samples their processes (a result's {@code resources.summary.brokers}), and each broker's figures
 * include the competition for the same cores, which costs a broker that needs more of them more.
 * Such figures compare the configurations as they ran on that host, not their capacities.
 */
public final class SharedHostCaveat {
  private SharedHostCaveat() {}

  /** The caveat for these runs' results, or empty when no broker ran beside the generator. */
  public static Optional<String> of(List<JsonNode> results) {
    TreeSet<String> brokers = new TreeSet<>();
    int shared = 0;
    int cores = 0;
    for (JsonNode result : results) {
      JsonNode resources = result.path("resources");
      JsonNode local = resources.path("summary").path("brokers");
      if (!local.isEmpty()) {
        shared++;
        local.fieldNames().forEachRemaining(brokers::add);
        cores = Math.max(cores, resources.path("hostCores").asInt());
      }
    }
    if (shared == 0) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "the brokers ran on the load generator's host in %d of %d runs (%s%s): each broker's"
                + " figures include the generator's use of the same cores, which costs a broker"
                + " that needs more of them more; they compare the configurations as they ran"
                + " there, not their capacities on hosts of their own",
            shared,
            results.size(),
            String.join(", ", brokers),
            cores > 0 ? ", " + cores + " cores" : ""));
  }
}
