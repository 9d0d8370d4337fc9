package io.plumb.driver.pulsar;

import io.plumb.driver.SendListener;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.TopicMetadata;
import org.apache.pulsar.client.impl.RoundRobinPartitionMessageRouterImpl;

/**
 * Routes a producer's messages exactly as the client's {@code RoundRobinPartition} mode does (keyed
 * messages to their key's partition, unkeyed ones round robin, per batch interval when batching),
 * and remembers the partition it chose for the message being sent. The acknowledgement's message ID
 * names the partition, but a failed send has no ID: without this, a send that timed out named no
 * partition, and the framework could not open that partition's unavailability window.
 *
 * <p>The client calls {@link #choosePartition} inside {@code sendAsync}, on the sending thread,
 * before anything can fail; one benchmark producer sends from one thread, so a plain field is
 * enough.
 */
final class RememberingRouter implements MessageRouter {
  private static final long serialVersionUID = 1L;

  /**
   * The client switches an unkeyed batch's partition every this many batching delays ({@code
   * ProducerConfigurationData.batchingPartitionSwitchFrequencyByPublishDelay}'s default).
   */
  private static final int SWITCH_EVERY_BATCHING_DELAYS = 10;

  private final MessageRouter routing;
  private int chosen = SendListener.UNKNOWN_PARTITION;

  /** The client's round robin router, built as its {@code RoundRobinPartition} mode builds it. */
  RememberingRouter(boolean batchingEnabled, long batchingMaxPublishDelayMs) {
    this.routing =
        new RoundRobinPartitionMessageRouterImpl(
            HashingScheme.Murmur3_32Hash,
            // Reduced modulo the partitions by the router: any start spreads producers alike.
            ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE),
            batchingEnabled,
            batchingMaxPublishDelayMs * SWITCH_EVERY_BATCHING_DELAYS);
  }

  @Override
  public int choosePartition(Message<?> msg, TopicMetadata metadata) {
    int partition = routing.choosePartition(msg, metadata);
    chosen = partition;
    return partition;
  }

  /**
   * The partition chosen since the last call, or {@link SendListener#UNKNOWN_PARTITION} when the
   * client chose none (a topic without partitions, or a send refused before routing).
   */
  int takeChosen() {
    int partition = chosen;
    chosen = SendListener.UNKNOWN_PARTITION;
    return partition;
  }
}
