package io.plumb.driver.pulsar;

import io.plumb.driver.MessageListener;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.MessageIdAdv;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionMode;

/**
 * Reads every partition of a topic from the earliest message the broker still holds up to its last
 * message ID, asked of the broker when the read starts, on a fresh non-durable subscription of each
 * partition (it leaves no state on the broker). The run's subscriptions are left alone: a log is
 * read whole whatever the subscription.
 */
final class PulsarFinalRead {

  private PulsarFinalRead() {}

  static String partitionTopic(String topic, int partition) {
    return topic + "-partition-" + partition;
  }

  static String read(
      PulsarClient client, String topic, int partitions, MessageListener sink, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    String subscription = "plumb-final-read-" + UUID.randomUUID();
    Consumer<?>[] consumers = new Consumer<?>[partitions];
    MessageId[] lastIds = new MessageId[partitions];
    try {
      // Every end first, then the reads: the end is the broker's at the start.
      for (int p = 0; p < partitions; p++) {
        consumers[p] =
            client
                .newConsumer()
                .topic(partitionTopic(topic, p))
                .subscriptionName(subscription)
                .subscriptionMode(SubscriptionMode.NonDurable)
                .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                .subscribe();
        lastIds[p] = consumers[p].getLastMessageIds().get(0);
      }
      for (int p = 0; p < partitions; p++) {
        readPartition(consumers[p], topic, p, lastIds[p], sink, deadline, timeout);
      }
    } finally {
      for (Consumer<?> consumer : consumers) {
        if (consumer != null) {
          consumer.close();
        }
      }
    }
    return describe(lastIds);
  }

  /**
   * "last entries 12:40, 13:7 on 2 partitions" (ledger:entry of each partition's last message, as
   * the broker reported it; "none" for an empty partition).
   */
  static String describe(MessageId[] lastIds) {
    StringBuilder b = new StringBuilder(lastIds.length == 1 ? "last entry " : "last entries ");
    for (int p = 0; p < lastIds.length; p++) {
      b.append(p == 0 ? "" : ", ");
      if (empty(lastIds[p])) {
        b.append("none");
      } else if (lastIds[p] instanceof MessageIdAdv adv) {
        b.append(adv.getLedgerId()).append(':').append(adv.getEntryId());
      } else {
        b.append(lastIds[p]);
      }
    }
    return b.append(" on ").append(lastIds.length).append(" partitions").toString();
  }

  /** An empty partition's last ID names no entry (entry -1). */
  static boolean empty(MessageId last) {
    return last instanceof MessageIdAdv adv && adv.getEntryId() < 0;
  }

  static int compareEntries(MessageIdAdv a, MessageIdAdv b) {
    int ledgers = Long.compare(a.getLedgerId(), b.getLedgerId());
    return ledgers != 0 ? ledgers : Long.compare(a.getEntryId(), b.getEntryId());
  }

  static boolean lastOfItsEntry(MessageIdAdv id) {
    return id.getBatchIndex() < 0
        || id.getBatchSize() <= 0
        || id.getBatchIndex() == id.getBatchSize() - 1;
  }

  private static void readPartition(
      Consumer<?> consumer,
      String topic,
      int partition,
      MessageId last,
      MessageListener sink,
      long deadline,
      Duration timeout)
      throws Exception {
    if (empty(last)) {
      return;
    }
    while (true) {
      long left = deadline - System.nanoTime();
      Message<?> message =
          left <= 0
              ? null
              : consumer.receive((int) Math.max(1, left / 1_000_000), TimeUnit.MILLISECONDS);
      if (message == null) {
        throw new TimeoutException(
            "final read of "
                + partitionTopic(topic, partition)
                + " did not reach its last message ID "
                + last
                + " within "
                + timeout);
      }
      MessageIdAdv id = (MessageIdAdv) message.getMessageId();
      int order = compareEntries(id, (MessageIdAdv) last);
      if (order <= 0) {
        PulsarHeader.deliver(message, partition, sink);
      }
      // Entries, not batch indexes: the whole last entry is read, whatever batch index the
      // broker's answer carries.
      if (order > 0 || (order == 0 && lastOfItsEntry(id))) {
        return;
      }
    }
  }
}
