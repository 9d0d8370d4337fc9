package io.plumb.driver.redis;

import io.plumb.driver.ClientWindow;
import java.util.Map;

/**
 * The Redis driver's send and receive windows, from the file's settings. A producer writes a batch
 * of {@code pipelineDepth} commands and reads all of their replies before it writes the next (both
 * senders, {@code resp} and {@code jedis}), so that many await the server at once; more wait in the
 * producer's own queue ({@code maxPendingSends}), not yet sent. A stream consumer reads up to
 * {@code readBatchSize} entries per stream (XREADGROUP or XREAD {@code COUNT}, which counts per
 * stream) from all of its topic's streams in one read, and acknowledges them before the next read.
 * Pub/Sub acknowledges nothing and never waits for a subscriber.
 */
final class RedisWindows {

  private RedisWindows() {}

  /**
   * The window facts: the send window always, the receive window once topics of {@code partitions}
   * partitions exist (a stream consumer's is per partition).
   */
  static Map<String, String> facts(RedisDriverConfig config, int partitions) {
    ClientWindow receive =
        config.mode() == RedisDriverConfig.Mode.PUBSUB || partitions >= 1
            ? receive(config, partitions)
            : null;
    return ClientWindow.facts(send(config), receive);
  }

  static ClientWindow send(RedisDriverConfig config) {
    return ClientWindow.messages(
        config.pipelineDepth(),
        "pipelineDepth "
            + config.pipelineDepth()
            + " commands per round trip, one batch awaiting its replies at a time"
            + (config.waitReplicas() > 0 ? " (and its WAIT)" : "")
            + "; up to maxPendingSends "
            + config.maxPendingSends()
            + " more queue in the producer, not yet sent; set it with --driver-set"
            + " pipelineDepth=N");
  }

  static ClientWindow receive(RedisDriverConfig config, int partitions) {
    if (config.mode() == RedisDriverConfig.Mode.PUBSUB) {
      return ClientWindow.unbounded(
          "mode pubsub: nothing is acknowledged and the server never waits for a subscriber (its"
              + " client-output-buffer-limit pubsub disconnects one that falls behind)");
    }
    boolean replica = config.consumeFrom() == RedisDriverConfig.ConsumeFrom.REPLICA;
    return ClientWindow.messages(
        (long) config.readBatchSize() * partitions,
        "readBatchSize "
            + config.readBatchSize()
            + " entries per stream per "
            + (replica ? "XREAD from a replica" : "XREADGROUP")
            + " x "
            + ClientWindow.partitions(partitions)
            + (replica ? ", nothing acknowledged" : ", acknowledged (XACK) before the next read")
            + "; set it with --driver-set readBatchSize=N");
  }
}
