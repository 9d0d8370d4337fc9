package io.plumb.driver.redis;

import io.plumb.driver.DaemonThreads;
import io.plumb.driver.MessageListener;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.params.XReadParams;

/**
 * One benchmark subscription reading from a replica ({@code consumeFrom: replica}), within this
 * driver: consumer groups cannot be read on a replica (XREADGROUP writes the group's state), so a
 * single reader per subscription runs XREAD on all of the topic's streams from a replica the
 * Sentinels list, keeping its position per stream itself, and splits the entries among the
 * subscription's consumers by partition (partition {@code p} goes to member {@code p mod members}),
 * as Pub/Sub mode does. It reads each stream from its first entry, so a consumer created before the
 * producers gets everything; sharing cannot span several driver processes.
 *
 * <p>A consumer here sees only what a replica holds: a write the primary acknowledged but never
 * replicated (asynchronous replication, then a failover that discards it) is never delivered, and
 * the run counts it as lost. On an error the reader tells the first member, waits {@link
 * StreamConsumer#RETRY_MILLIS}, connects to a replica again (the Sentinels' choice of that moment)
 * and goes on from its positions.
 */
final class ReplicaSubscription implements SharedSubscription {

  private final byte[][] streams;
  private final int prefixLength;
  private final XReadParams params;
  private final Thread thread;
  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile MessageListener[] members = new MessageListener[0];
  private final HeldConnection<ConsumerConnection> connection;
  private volatile boolean closed;

  ReplicaSubscription(
      Supplier<ConsumerConnection> connect,
      String topic,
      int partitions,
      int batchSize,
      int blockMillis) {
    this.connection = new HeldConnection<>(connect, null);
    this.streams = RedisKeys.partitions(topic, partitions);
    this.prefixLength = RedisKeys.prefixLength(topic);
    this.params = XReadParams.xReadParams().count(batchSize).block(blockMillis);
    // Connect before returning: no replica to read from fails createConsumer.
    connection.connect();
    this.thread = DaemonThreads.named("plumb-redis-replica-reader-" + topic).newThread(this::run);
  }

  /** Adds a member; the first one starts the reader. */
  @Override
  public synchronized void join(MessageListener listener) {
    MessageListener[] m = Arrays.copyOf(members, members.length + 1);
    m[m.length - 1] = listener;
    members = m;
    if (m.length == 1) {
      thread.start();
    }
  }

  /** Removes a member; true if none is left (the caller then closes the subscription). */
  @Override
  public synchronized boolean leave(MessageListener listener) {
    members = Arrays.stream(members).filter(l -> l != listener).toArray(MessageListener[]::new);
    return members.length == 0;
  }

  private void run() {
    byte[][] positions = new byte[streams.length][];
    Arrays.fill(positions, StreamFields.bytes("0-0"));
    @SuppressWarnings("unchecked")
    Map.Entry<byte[], byte[]>[] from = new Map.Entry[streams.length];
    try {
      while (!closed) {
        try {
          for (int i = 0; i < streams.length; i++) {
            from[i] = new AbstractMap.SimpleImmutableEntry<>(streams[i], positions[i]);
          }
          List<Object> reply = connection.connected().jedis().xread(params, from);
          if (reply != null) {
            deliver(reply, positions);
          }
        } catch (RuntimeException e) {
          if (closed) {
            return;
          }
          MessageListener[] m = members;
          if (m.length > 0) {
            m[0].failed(e);
          }
          connection.drop();
          if (closing.await(StreamConsumer.RETRY_MILLIS, TimeUnit.MILLISECONDS)) {
            return;
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      connection.drop();
    }
  }

  /** Reply shape (RESP2): [[stream, [[id, [field, value, ...]], ...]], ...]. */
  private void deliver(List<Object> reply, byte[][] positions) {
    MessageListener[] m = members;
    for (Object perStream : reply) {
      List<?> s = (List<?>) perStream;
      int partition = RedisKeys.partitionOf((byte[]) s.get(0), prefixLength);
      MessageListener member = m[Math.floorMod(partition, m.length)];
      for (Object e : (List<?>) s.get(1)) {
        List<?> entry = (List<?>) e;
        positions[partition] = (byte[]) entry.get(0);
        StreamHeader.deliver((List<?>) entry.get(1), partition, member);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    closing.countDown();
    if (thread.isAlive()) {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } else {
      connection.drop();
    }
  }
}
