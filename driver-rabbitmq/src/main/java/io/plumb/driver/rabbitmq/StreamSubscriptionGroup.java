package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.ConsumerFlowStrategy;
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
 *
 * <p>Pause and resume (backlog workloads) use the stream protocol's credits rather than closing
 * readers: each reader is its own flow strategy, which gives the broker a credit for each chunk
 * that arrives (as the client's default, {@code creditOnChunkArrival}) unless its member is paused.
 * A paused reader keeps the chunks it was already credited for ({@code initialCredits} at most) and
 * delivers them, then the broker sends nothing more; resuming returns the withheld credits, and the
 * broker continues from the next offset of the same subscription, so nothing is skipped or sent
 * twice. Neither call blocks: a pause is a flag, a resume one credit frame per partition.
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

  /** One client consumer reading one partition stream for one member, and its credits. */
  private final class Reader implements MessageHandler, ConsumerFlowStrategy {
    final int partition;
    final StreamConsumer member;
    Consumer client;
    // Chunks that arrived while the member was paused, not credited back yet, and the latest
    // arrival's context (its subscription: the client's recovery may have subscribed anew).
    private int withheld;
    private ConsumerFlowStrategy.Context lastArrival;

    Reader(int partition, StreamConsumer member) {
      this.partition = partition;
      this.member = member;
    }

    @Override
    public int initialCredits() {
      return initialCredits;
    }

    /** A chunk arrived (on the client's I/O thread): credit another unless paused. */
    @Override
    public MessageProcessedCallback start(ConsumerFlowStrategy.Context context) {
      synchronized (this) {
        if (member.paused()) {
          withheld++;
          lastArrival = context;
          return NOTHING_TO_DO;
        }
      }
      context.credits(1);
      return NOTHING_TO_DO;
    }

    /**
     * Returns the credits withheld while paused, once the member's pause is lifted. At most {@code
     * initialCredits}: the window of the subscription last seen, which after the client's own
     * recovery is a new one, the old one's credits gone with it.
     */
    void resume() {
      ConsumerFlowStrategy.Context context;
      int credits;
      synchronized (this) {
        context = lastArrival;
        credits = Math.min(withheld, initialCredits);
        lastArrival = null;
        withheld = 0;
      }
      if (context != null && credits > 0) {
        context.credits(credits);
      }
    }

    @Override
    public void handle(MessageHandler.Context context, com.rabbitmq.stream.Message message) {
      Partition state = partitions[partition];
      // Uncontended except during a hand-over; it is what makes hand-overs exact.
      synchronized (state) {
        long offset = context.offset();
        if (state.active != this || offset < state.nextOffset) {
          return;
        }
        StreamHeader.deliver(message, partition, member.listener());
        state.nextOffset = offset + 1;
      }
    }
  }

  private static final ConsumerFlowStrategy.MessageProcessedCallback NOTHING_TO_DO = context -> {};

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

  /**
   * Credits {@code member}'s readers again after its pause was lifted ({@link
   * StreamConsumer#paused} false); a reader whose chunk arrives meanwhile credits itself.
   */
  void resume(StreamConsumer member) {
    for (Partition state : partitions) {
      Reader reader;
      synchronized (state) {
        reader = state.active;
      }
      if (reader != null && reader.member == member) {
        reader.resume();
      }
    }
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
                .strategy(reader)
                .builder()
                .build();
      }
    }
  }
}
