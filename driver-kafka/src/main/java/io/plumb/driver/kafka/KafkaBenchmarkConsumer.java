package io.plumb.driver.kafka;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.MessageListener;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * One {@link KafkaConsumer} in the subscription's consumer group, polled by its own thread (the
 * client is single-threaded by design).
 *
 * <p>Offsets are committed asynchronously at most about once a second rather than after every poll,
 * which would add a broker round trip per batch. Committing every position at a rebalance and at
 * close keeps a partition's next owner from reading messages again, which the framework would count
 * as duplicates.
 *
 * <p>When a broker dies, freezes or is cut off, the client itself finds the partition's new leader
 * and the group's new coordinator (its request timeout and metadata refresh, set in the driver
 * file, bound how long that takes): the poll thread just keeps polling. A commit that fails for a
 * passing reason (the coordinator moving) is no error: the next one, a second later, carries the
 * same positions.
 *
 * <p>{@link #pause} and {@link #resume} only set a flag: the poll thread applies it with {@link
 * KafkaConsumer#pause} before its next poll (the client may only be used from that thread), and
 * pauses partitions assigned later too, so a rebalance cannot restart delivery.
 */
final class KafkaBenchmarkConsumer implements BenchmarkConsumer {

  private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
  private static final long COMMIT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CLIENT_CLOSE_TIMEOUT = Duration.ofSeconds(10);
  private static final long THREAD_JOIN_MILLIS = 30_000;

  /** Pause after a failed poll so a persistent error is reported, not spun on. */
  private static final long ERROR_BACKOFF_MILLIS = 100;

  private final KafkaConsumer<String, byte[]> consumer;
  private final MessageListener listener;
  private final boolean clientCommits;
  private final OffsetCommitCallback commitCallback = this::committed;
  private final Thread pollThread;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean pauseWanted;

  /**
   * Set by the commit callback, which runs inside poll() on the poll thread, when a commit failed
   * for a reason that passes (a coordinator moving): the next commit is due even with no new
   * records.
   */
  private boolean commitAgain;

  /**
   * Subscribes and starts polling at once.
   *
   * @param clientCommits true when the client auto-commits ({@code enable.auto.commit=true})
   */
  KafkaBenchmarkConsumer(
      KafkaConsumer<String, byte[]> consumer,
      String topic,
      String subscription,
      MessageListener listener,
      boolean clientCommits) {
    this.consumer = consumer;
    this.listener = listener;
    this.clientCommits = clientCommits;
    consumer.subscribe(List.of(topic), new CommitOnRevoke());
    this.pollThread =
        DaemonThreads.start("kafka-consumer-" + topic + "-" + subscription, this::pollLoop);
  }

  /** The asynchronous commit's callback, run inside poll() on the poll thread. */
  private void committed(Map<TopicPartition, OffsetAndMetadata> offsets, Exception exception) {
    if (exception instanceof RetriableException) {
      // The group coordinator moved or is out of reach (a broker died or was cut off): the client
      // finds the new one by itself, and the next commit carries these positions.
      commitAgain = true;
    } else if (exception != null) {
      listener.failed(exception);
    }
  }

  private void pollLoop() {
    long lastCommit = System.nanoTime();
    boolean uncommitted = false;
    boolean paused = false;
    while (closing.getCount() > 0) {
      try {
        boolean wanted = pauseWanted;
        if (wanted != paused) {
          if (wanted) {
            consumer.pause(consumer.assignment());
          } else {
            consumer.resume(consumer.paused());
          }
          paused = wanted;
        }
        ConsumerRecords<String, byte[]> records = consumer.poll(POLL_TIMEOUT);
        for (ConsumerRecord<String, byte[]> record : records) {
          KafkaHeader.deliver(record, listener);
        }
        uncommitted |= !records.isEmpty() || commitAgain;
        if (uncommitted && !clientCommits) {
          long now = System.nanoTime();
          if (now - lastCommit >= COMMIT_INTERVAL_NANOS) {
            // Commits the positions of the last poll, all of whose records were just delivered.
            consumer.commitAsync(commitCallback);
            lastCommit = now;
            uncommitted = false;
            commitAgain = false;
          }
        }
      } catch (WakeupException e) {
        // close() woke us up; the loop condition ends the loop.
      } catch (RuntimeException e) {
        listener.failed(e);
        awaitClosing(ERROR_BACKOFF_MILLIS);
      }
    }
  }

  @Override
  public void pause() {
    pauseWanted = true;
  }

  @Override
  public void resume() {
    pauseWanted = false;
  }

  @Override
  public void close() throws Exception {
    if (!closed.compareAndSet(false, true)) {
      return; // the framework and then the driver may both close it
    }
    closing.countDown();
    consumer.wakeup();
    pollThread.join(THREAD_JOIN_MILLIS);
    if (pollThread.isAlive()) {
      // The client is not thread-safe: closing it under a running poll would corrupt it.
      throw new TimeoutException(
          pollThread.getName() + " did not stop within " + THREAD_JOIN_MILLIS + " ms");
    }
    try {
      if (!clientCommits) {
        commitFinal();
      }
    } finally {
      consumer.close(CLIENT_CLOSE_TIMEOUT);
    }
  }

  /** Commits what was delivered, so the group's next member starts after it. */
  private void commitFinal() {
    // The wakeup from close() is still pending if the thread was not inside poll() when it
    // came: the first blocking call consumes it, so try once more.
    for (int attempt = 0; attempt < 2; attempt++) {
      try {
        consumer.commitSync(COMMIT_TIMEOUT);
        return;
      } catch (WakeupException pendingWakeup) {
        // retry
      } catch (RuntimeException e) {
        listener.failed(e);
        return;
      }
    }
  }

  private void awaitClosing(long millis) {
    try {
      closing.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closing.countDown();
    }
  }

  /** Runs inside poll() on the poll thread, before partitions move to another member. */
  private final class CommitOnRevoke implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      if (clientCommits || partitions.isEmpty()) {
        return;
      }
      try {
        consumer.commitSync(COMMIT_TIMEOUT);
      } catch (WakeupException e) {
        throw e; // closing: let poll() end the loop
      } catch (RuntimeException e) {
        listener.failed(e);
      }
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      if (pauseWanted && !partitions.isEmpty()) {
        consumer.pause(partitions);
      }
    }
  }
}
