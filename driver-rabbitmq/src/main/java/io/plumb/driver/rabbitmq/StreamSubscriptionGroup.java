package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.MessageHandler;
import com.rabbitmq.stream.OffsetSpecification;
import java.util.ArrayList;
import java.util.List;

/**
 * The consumers of one subscription on the stream driver. Streams are read non-destructively, so
 * the group itself decides who reads what: partition {@code p} is read by member {@code p %
 * members}, and the next offset to deliver is kept per partition. A reader hands a message to its
 * member's listener only while it is still the partition's active reader and the offset is the next
 * one, so moving a partition to another member (when members join or leave) delivers every message
 * exactly once.
 */
final class StreamSubscriptionGroup {
  private final Environment environment;
  private final String topic;
  private final int initialCredits;
  private final List<StreamConsumer> members = new ArrayList<>();
  private final Partition[] partitions;

  /** Per-partition state, guarded by its own monitor. */
  private static final class Partition {
    Reader active;
    long nextOffset = -1; // -1: nothing delivered yet, read from the first message
  }

  /** One client consumer reading one partition stream for one member. */
  private final class Reader implements MessageHandler {
    final int partition;
    final StreamConsumer member;
    Consumer client;

    Reader(int partition, StreamConsumer member) {
      this.partition = partition;
      this.member = member;
    }

    @Override
    public void handle(Context context, com.rabbitmq.stream.Message message) {
      Partition state = partitions[partition];
      // Uncontended except during a hand-over; it is what makes hand-overs exact.
      synchronized (state) {
        long offset = context.offset();
        if (state.active != this || offset < state.nextOffset) {
          return;
        }
        member.listener().received(message.getBodyAsBinary(), partition);
        state.nextOffset = offset + 1;
      }
    }
  }

  StreamSubscriptionGroup(Environment environment, String topic, int partitions, int credits) {
    this.environment = environment;
    this.topic = topic;
    this.initialCredits = credits;
    this.partitions = new Partition[partitions];
    for (int p = 0; p < partitions; p++) {
      this.partitions[p] = new Partition();
    }
  }

  synchronized void join(StreamConsumer member) {
    members.add(member);
    rebalance();
  }

  synchronized void leave(StreamConsumer member) {
    members.remove(member);
    rebalance();
  }

  private void rebalance() {
    for (int p = 0; p < partitions.length; p++) {
      StreamConsumer wanted = members.isEmpty() ? null : members.get(p % members.size());
      Partition state = partitions[p];
      Reader current;
      synchronized (state) {
        current = state.active;
      }
      if (current != null && current.member == wanted) {
        continue;
      }
      if (current != null) {
        synchronized (state) {
          state.active = null;
        }
        // Outside the monitor: the client may be delivering to this reader right now.
        current.client.close();
      }
      if (wanted != null) {
        Reader reader = new Reader(p, wanted);
        long next;
        synchronized (state) {
          state.active = reader;
          next = state.nextOffset;
        }
        reader.client =
            environment.consumerBuilder().stream(StreamNames.partition(topic, p))
                .offset(next < 0 ? OffsetSpecification.first() : OffsetSpecification.offset(next))
                .noTrackingStrategy()
                .messageHandler(reader)
                .flow()
                .initialCredits(initialCredits)
                .builder()
                .build();
      }
    }
  }
}
