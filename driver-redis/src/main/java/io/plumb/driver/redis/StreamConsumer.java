package io.plumb.driver.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.MessageListener;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.XReadGroupParams;

/**
 * A member of a Redis Streams consumer group named after the benchmark subscription: members of one
 * group share the entries, each group gets all of them. One thread per member reads new entries
 * from all of the topic's streams with XREADGROUP, hands each to the listener, then acknowledges
 * the batch with XACK (pipelined, one per stream).
 *
 * <p>After every (re)connection the member first reads its own pending entries (XREADGROUP from ID
 * {@code 0}: delivered to it but not acknowledged) and hands them to the listener again: after a
 * failover the new primary may record as delivered entries whose reply never reached this member,
 * and without this they would never be read again. An entry the member did receive is then received
 * twice (a duplicate, which the framework counts), never lost.
 *
 * <p>Following the primary: between reads the member checks that its connection goes to the primary
 * Sentinel names now, and {@link #primaryChanged} aborts a read blocked on a former one. Any error
 * closes the connection; the member reconnects {@link #RETRY_MILLIS} later (to the primary of that
 * moment) and tells the listener about the error.
 *
 * <p>{@link #pause} and {@link #resume} (backlog workloads) only set a flag: the reader stops
 * before its next read, and a read in flight still delivers its batch. Entries written meanwhile
 * wait in the streams, beyond the group's last delivered ID, and the first read after {@link
 * #resume} starts there. A paused member does not reconnect either: after an error it does so once
 * resumed.
 */
final class StreamConsumer implements BenchmarkConsumer {

  /** Pause before reconnecting after an error. */
  static final long RETRY_MILLIS = 100;

  private final byte[] group;
  private final byte[] consumerName;
  private final byte[][] streams;
  private final int prefixLength;
  private final XReadGroupParams params;
  private final XReadGroupParams pendingParams;
  private final HeldConnection<ConsumerConnection> connection;
  private final MessageListener listener;
  private final Thread reader;
  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile boolean closed;
  private final Object pauseLock = new Object();
  private volatile boolean pauseWanted;
  // Stops the endpoint telling this member of primary changes; run first on close.
  private volatile Runnable unwatch = () -> {};

  StreamConsumer(
      Supplier<ConsumerConnection> connect,
      Supplier<HostAndPort> primary,
      String topic,
      int partitions,
      String subscription,
      String consumerName,
      int batchSize,
      int blockMillis,
      MessageListener listener) {
    this.connection = new HeldConnection<>(connect, primary);
    this.group = StreamFields.bytes(subscription);
    this.consumerName = StreamFields.bytes(consumerName);
    this.streams = RedisKeys.partitions(topic, partitions);
    this.prefixLength = RedisKeys.prefixLength(topic);
    this.params = XReadGroupParams.xReadGroupParams().count(batchSize).block(blockMillis);
    this.pendingParams = XReadGroupParams.xReadGroupParams().count(batchSize);
    this.listener = listener;
    // Connect and create the group before returning: a bad address fails createConsumer.
    try {
      createGroup(connection.connect().jedis());
    } catch (RuntimeException e) {
      connection.drop();
      throw e;
    }
    this.pendingPositions = startOfPending();
    this.reader = DaemonThreads.start("plumb-redis-consumer-" + subscription, this::run);
  }

  /**
   * Creates the group on every stream (and the stream itself if no one wrote yet), reading from the
   * start so entries written before the group existed are delivered too. Another member may have
   * created it already. Then joins it as this member: otherwise the server knows the member only
   * from its first read, and one paused before that read would be missing from XINFO CONSUMERS.
   */
  private void createGroup(Jedis jedis) {
    for (byte[] stream : streams) {
      try {
        jedis.xgroupCreate(stream, group, StreamFields.bytes("0"), true);
      } catch (JedisDataException e) {
        if (e.getMessage() == null || !e.getMessage().startsWith("BUSYGROUP")) {
          throw e;
        }
      }
      jedis.xgroupCreateConsumer(stream, group, consumerName);
    }
  }

  private void run() {
    @SuppressWarnings("unchecked")
    Map.Entry<byte[], byte[]>[] from = new Map.Entry[streams.length];
    for (int i = 0; i < streams.length; i++) {
      from[i] = new AbstractMap.SimpleImmutableEntry<>(streams[i], StreamFields.NEW_ENTRIES);
    }
    List<List<byte[]>> acks = new ArrayList<>(streams.length);
    for (int i = 0; i < streams.length; i++) {
      acks.add(new ArrayList<>());
    }
    boolean connected = true; // the constructor's connection, group created
    try {
      while (!closed) {
        if (pauseWanted) {
          awaitResume();
          continue;
        }
        try {
          if (!connected || !connection.onPrimary()) {
            connection.drop();
            createGroup(connection.connect().jedis());
            connected = true;
            pendingPositions = startOfPending();
          }
          if (pendingPositions != null) {
            readPending(acks);
            continue;
          }
          List<Object> reply =
              connection.get().jedis().xreadGroup(group, consumerName, params, from);
          if (reply == null || reply.isEmpty()) {
            continue;
          }
          deliver(reply, acks, null);
          acknowledge(connection.get().jedis(), acks);
        } catch (RuntimeException e) {
          if (closed) {
            return;
          }
          listener.failed(e);
          connected = false;
          pendingPositions = null;
          connection.drop();
          for (List<byte[]> ids : acks) {
            ids.clear(); // still pending on the server: read again as this member's own
          }
          // Back off briefly (woken at once by close), then start over on a new connection.
          if (closing.await(RETRY_MILLIS, TimeUnit.MILLISECONDS)) {
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

  // The reader's: where the next read of this member's own pending entries starts, per stream;
  // null once they have all been read again after a (re)connection.
  private byte[][] pendingPositions;

  private byte[][] startOfPending() {
    byte[][] positions = new byte[streams.length][];
    Arrays.fill(positions, StreamFields.bytes("0"));
    return positions;
  }

  /** Reads the next batch of this member's pending entries, or notes that none are left. */
  private void readPending(List<List<byte[]>> acks) {
    @SuppressWarnings("unchecked")
    Map.Entry<byte[], byte[]>[] from = new Map.Entry[streams.length];
    for (int i = 0; i < streams.length; i++) {
      from[i] = new AbstractMap.SimpleImmutableEntry<>(streams[i], pendingPositions[i]);
    }
    List<Object> reply =
        connection.get().jedis().xreadGroup(group, consumerName, pendingParams, from);
    if (deliver(reply, acks, pendingPositions) == 0) {
      pendingPositions = null;
      return;
    }
    acknowledge(connection.get().jedis(), acks);
  }

  @Override
  public void pause() {
    pauseWanted = true;
  }

  @Override
  public void resume() {
    synchronized (pauseLock) {
      pauseWanted = false;
      pauseLock.notifyAll();
    }
  }

  /** The reader's: waits until {@link #resume} or {@link #close}. */
  private void awaitResume() throws InterruptedException {
    synchronized (pauseLock) {
      while (pauseWanted && !closed) {
        pauseLock.wait();
      }
    }
  }

  /** Sentinel named a new primary: a read blocked on another server is aborted at once. */
  void primaryChanged(HostAndPort now) {
    connection.abortIfNotTo(now);
  }

  /**
   * Reply shape (RESP2): [[stream, [[id, [field, value, ...]], ...]], ...]. Parsed directly,
   * without building maps, since this runs for every entry.
   */
  private int deliver(List<Object> reply, List<List<byte[]>> acks, byte[][] positions) {
    int entries = 0;
    if (reply == null) {
      return 0;
    }
    for (Object perStream : reply) {
      List<?> s = (List<?>) perStream;
      byte[] stream = (byte[]) s.get(0);
      int partition = indexOf(stream);
      List<byte[]> ids = acks.get(partition);
      for (Object e : (List<?>) s.get(1)) {
        List<?> entry = (List<?>) e;
        entries++;
        ids.add((byte[]) entry.get(0));
        if (positions != null) {
          positions[partition] = (byte[]) entry.get(0);
        }
        // Null fields: the entry was deleted (trimmed) after it was delivered; only ack it.
        StreamHeader.deliver((List<?>) entry.get(1), partition, listener);
      }
    }
    return entries;
  }

  private int indexOf(byte[] stream) {
    int p = RedisKeys.partitionOf(stream, prefixLength);
    if (p >= 0 && p < streams.length) {
      return p;
    }
    for (int i = 0; i < streams.length; i++) {
      if (Arrays.equals(streams[i], stream)) {
        return i;
      }
    }
    throw new IllegalStateException("reply for a stream not read: " + new String(stream, UTF_8));
  }

  private void acknowledge(Jedis jedis, List<List<byte[]>> acks) {
    // Closing the pipeline reads the replies and hands the connection back to plain commands.
    try (Pipeline pipeline = jedis.pipelined()) {
      for (int p = 0; p < streams.length; p++) {
        List<byte[]> ids = acks.get(p);
        if (!ids.isEmpty()) {
          pipeline.xack(streams[p], group, ids.toArray(new byte[0][]));
          ids.clear();
        }
      }
    }
  }

  /** What close runs first: the endpoint's unsubscription of {@link #primaryChanged}. */
  void unwatchOnClose(Runnable unwatch) {
    this.unwatch = unwatch;
  }

  @Override
  public void close() throws InterruptedException {
    unwatch.run();
    closed = true;
    closing.countDown();
    synchronized (pauseLock) {
      pauseLock.notifyAll();
    }
    // The reader notices within one XREADGROUP block period.
    reader.join(TimeUnit.SECONDS.toMillis(30));
  }
}
