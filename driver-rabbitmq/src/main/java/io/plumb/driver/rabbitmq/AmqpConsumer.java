package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One member of a subscription: its own connection, consuming the partition queues that its {@link
 * SubscriptionGroup} assigns to it with manual acknowledgements, each queue on a channel of its
 * own.
 *
 * <p>A channel per queue rather than one for all: the broker runs each channel as one process that
 * forwards every delivery and acknowledgement of that channel, and for stream queues also reads the
 * log. One channel for all partitions would serialise a whole consumer's traffic through one broker
 * process (one core), a limit of the client's layout rather than of the broker. The client
 * dispatches each channel's deliveries on one thread at a time, in delivery-tag order, so each
 * channel's acknowledgement with {@code multiple=true} covers only deliveries already handed to the
 * listener, and its counters need no synchronization; different channels may deliver concurrently
 * (the listener is thread-safe).
 *
 * <p>Faults: when the connection is lost, the client's automatic recovery reconnects (to the next
 * node that answers), declares each queue again, and restarts its consumers; the broker requeues
 * what was delivered but not acknowledged, so those messages may arrive twice. A stream queue's
 * consumer is not restarted by the client, which would read from its first offset again: this
 * consumer consumes it again itself once the connection is back, after the last offset delivered.
 * When the broker cancels a consumer itself (its queue went away with its node, as a classic queue
 * does) or closes its channel, this consumer declares the queue again on a new channel and consumes
 * from it, every {@code recoveryIntervalMs} until that works, unless the topic is being deleted.
 *
 * <p>Pause and resume (backlog workloads): {@link #pause} sends {@code basic.cancel} for each
 * partition queue's consumer; what the broker already sent within the prefetch window still reaches
 * the listener and is acknowledged (flushed when the cancel-ok arrives); every other message stays
 * in the queue. {@link #resume} closes the channel and consumes each queue again on a new one with
 * the same prefetch and arguments, a stream queue from the offset after the last one delivered. A
 * quorum queue may have handed the channel messages that the channel drops once the cancel takes
 * effect; closing the channel returns them to the queue, and RabbitMQ 3.10 delivers them after a
 * few newer messages (counted out of order, never lost or received twice). Both calls return at
 * once: their broker calls run on the driver's executor, one after the other per consumer, in the
 * order asked. A cancel asked for here completes through {@code handleCancelOk}, never {@code
 * handleCancel}, so it is not taken for the broker's; and while paused, neither the resubscription
 * timer nor the connection's recovery consumes again (the client forgets a consumer once it is
 * cancelled, so recovery has nothing to restart).
 */
final class AmqpConsumer implements BenchmarkConsumer {

  private static final long CANCEL_TIMEOUT_SECONDS = 30;

  /** Where a stream queue's consumer starts, and the header naming each delivery's offset. */
  static final String STREAM_OFFSET = "x-stream-offset";

  private final Connection connection;
  private final QueueType queueType;
  private final int prefetchCount;
  private final AmqpPartitionConsumer.Settings settings;
  private final long resubscribeDelayMillis;
  private final SubscriptionGroup group;
  private final ScheduledExecutorService timers;
  private final Executor control;
  private final Map<Integer, AmqpPartitionConsumer> byPartition = new HashMap<>();
  private volatile boolean closed;
  // Guarded by this; read by resubscriptions (which hold this too).
  private boolean paused;
  // Pauses and resumes not yet done, in the order asked; guarded by controlLock.
  private final Object controlLock = new Object();
  private CompletableFuture<Void> controls = CompletableFuture.completedFuture(null);

  AmqpConsumer(
      Connection connection,
      MessageListener listener,
      RabbitMqConfig config,
      SubscriptionGroup group,
      ScheduledExecutorService timers,
      Executor control) {
    this.connection = connection;
    this.queueType = config.queueType();
    this.prefetchCount = config.prefetchCount();
    this.settings =
        new AmqpPartitionConsumer.Settings(
            listener, queueType == QueueType.STREAM, config.ackBatchSize());
    this.resubscribeDelayMillis = config.recoveryIntervalMs();
    this.group = group;
    this.timers = timers;
    this.control = control;
  }

  /**
   * Declares and binds a partition queue (a no-op while it exists) and starts consuming it on a new
   * channel. {@code streamOffset} is where a stream queue resumes (the offset after the last one a
   * previous owner delivered), or -1 to read from the first message. While this consumer is paused
   * the channel is opened but consumes only on {@link #resume}.
   */
  synchronized void acquire(int partition, String queue, long streamOffset) throws IOException {
    Channel channel = connection.createChannel();
    try {
      group.declare(channel, partition);
      // Per consumer (global=false): the queue's own window of unacknowledged deliveries.
      channel.basicQos(prefetchCount, false);
      AmqpPartitionConsumer consumer =
          new AmqpPartitionConsumer(
              channel, partition, queue, streamOffset - 1, settings, this::resubscribeLater);
      if (paused) {
        consumer.cancelled.complete(null);
      } else {
        Map<String, Object> arguments = Map.of();
        if (queueType == QueueType.STREAM) {
          arguments = Map.of(STREAM_OFFSET, streamOffset < 0 ? (Object) "first" : streamOffset);
        }
        // Keep the tag basicConsume returns: DefaultConsumer learns it only when handleConsumeOk
        // is dispatched, which may come after a quick reassignment has already cancelled it.
        consumer.tag = channel.basicConsume(queue, false, "", false, false, arguments, consumer);
      }
      byPartition.put(partition, consumer);
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  /**
   * Stops consuming a partition queue, waits until every delivery of it has reached the listener
   * and been acknowledged, and closes its channel. Returns the last stream offset delivered (-1 if
   * none), so the next owner of a stream queue resumes right after it.
   */
  synchronized long release(int partition) throws Exception {
    AmqpPartitionConsumer consumer = byPartition.remove(partition);
    if (consumer == null) {
      return -1;
    }
    Channel channel = consumer.getChannel();
    if (channel.isOpen() && !consumer.cancelled.isDone()) {
      consumer.cancel();
      awaitCancelled(consumer);
    }
    closeQuietly(channel);
    return consumer.lastStreamOffset;
  }

  /**
   * Waits (bounded) until every delivery of a cancelled consumer has reached the listener and been
   * acknowledged.
   */
  private static void awaitCancelled(AmqpPartitionConsumer consumer) {
    try {
      consumer.cancelled.get(CANCEL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Not confirmed in time: closing the channel requeues what was not acknowledged.
    }
  }

  /**
   * Stops delivery: cancels each partition queue's consumer (on the driver's executor; returns at
   * once).
   */
  @Override
  public void pause() {
    enqueue(this::stopConsuming);
  }

  /** Consumes each partition queue again where the pause left it (returns at once). */
  @Override
  public void resume() {
    enqueue(this::startConsuming);
  }

  /** Runs {@code step} after the pauses and resumes asked before it, on the driver's executor. */
  private void enqueue(Runnable step) {
    synchronized (controlLock) {
      // A step never fails (each catches its own), but a closed executor refuses it: the next
      // steps run all the same, and see the consumer closed.
      controls = controls.exceptionally(e -> null).thenRunAsync(step, control);
    }
  }

  private synchronized void stopConsuming() {
    paused = true;
    for (AmqpPartitionConsumer consumer : byPartition.values()) {
      if (!consumer.cancelled.isDone()) {
        consumer.cancel();
      }
    }
    // The channels stay open until the resume. Closed right after the cancel-ok, a quorum queue
    // requeued messages whose acknowledgement had just been sent (20 delivered twice in a 1 GB
    // run on RabbitMQ 3.10.8): its channel can hold a settlement back while many of its commands
    // are pending, and a closed channel never sends it.
  }

  private synchronized void startConsuming() {
    if (!paused) {
      return;
    }
    paused = false;
    if (closed) {
      return;
    }
    for (Integer p : List.copyOf(byPartition.keySet())) {
      AmqpPartitionConsumer consumer = byPartition.get(p);
      // Its cancel-ok may still be on its way through the dispatch thread, flushing acks.
      awaitCancelled(consumer);
      consumeAgain(p, consumer);
    }
  }

  /**
   * Consumes partition {@code p} again on a new channel after the broker cancelled {@code lost} or
   * closed its channel; tried again later while it fails.
   */
  private void resubscribeLater(AmqpPartitionConsumer lost) {
    if (closed || group.deleted()) {
      return;
    }
    try {
      timers.schedule(
          () -> resubscribe(lost.partition, lost), resubscribeDelayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // The driver is closing.
    }
  }

  private synchronized void resubscribe(int p, AmqpPartitionConsumer lost) {
    // While paused the lost consumer stays listed: resume consumes the queue again.
    if (closed || paused || group.deleted() || byPartition.get(p) != lost) {
      return;
    }
    if (!connection.isOpen()) {
      // The connection's own recovery runs; try once it is back.
      resubscribeLater(lost);
      return;
    }
    consumeAgain(p, lost);
  }

  /**
   * Replaces a consumer that no longer consumes (cancelled or its channel closed) by a new one on a
   * new channel, a stream queue resuming after the last offset delivered; tried again later while
   * that fails.
   */
  private void consumeAgain(int p, AmqpPartitionConsumer old) {
    byPartition.remove(p);
    closeQuietly(old.getChannel());
    long resume = old.lastStreamOffset < 0 ? -1 : old.lastStreamOffset + 1;
    try {
      acquire(p, old.queue, resume);
    } catch (IOException | RuntimeException e) {
      byPartition.put(p, old);
      resubscribeLater(old);
    }
  }

  private static void closeQuietly(Channel channel) {
    try {
      if (channel.isOpen()) {
        channel.close();
      }
    } catch (Exception e) {
      // already closed, or its connection is down
    }
  }

  /** This member's connection, for tests that wait for its recovery. */
  Connection connection() {
    return connection;
  }

  @Override
  public void close() throws Exception {
    closed = true;
    try {
      // Hands this member's queues to the remaining members; each release flushes acks, so
      // nothing this consumer delivered is requeued and delivered twice.
      group.leave(this);
    } finally {
      if (connection.isOpen()) {
        connection.close();
      } else {
        // Lost and still recovering: abort ends the recovery attempts too.
        connection.abort();
      }
    }
  }
}
