package io.plumb.driver.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.XReadGroupParams;

/**
 * A member of a Redis Streams consumer group named after the benchmark subscription: members of one
 * group share the entries, each group gets all of them. One thread per member reads new entries
 * from all of the topic's streams with XREADGROUP, hands each to the listener, then acknowledges
 * the batch with XACK (pipelined, one per stream).
 */
final class StreamConsumer implements BenchmarkConsumer {

  private final Supplier<Jedis> connect;
  private final byte[] group;
  private final byte[] consumerName;
  private final byte[][] streams;
  private final int prefixLength;
  private final XReadGroupParams params;
  private final MessageListener listener;
  private final Thread reader;
  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile boolean closed;

  StreamConsumer(
      Supplier<Jedis> connect,
      String topic,
      int partitions,
      String subscription,
      String consumerName,
      int batchSize,
      int blockMillis,
      MessageListener listener) {
    this.connect = connect;
    this.group = StreamFields.bytes(subscription);
    this.consumerName = StreamFields.bytes(consumerName);
    this.streams = RedisKeys.partitions(topic, partitions);
    this.prefixLength = RedisKeys.prefixLength(topic);
    this.params = XReadGroupParams.xReadGroupParams().count(batchSize).block(blockMillis);
    this.listener = listener;
    Jedis jedis = connect.get();
    try {
      createGroup(jedis);
    } catch (RuntimeException e) {
      jedis.close();
      throw e;
    }
    this.reader = new Thread(() -> run(jedis), "plumb-redis-consumer-" + subscription);
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Creates the group on every stream (and the stream itself if no one wrote yet), reading from the
   * start so entries written before the group existed are delivered too. Another member may have
   * created it already.
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
    }
  }

  private void run(Jedis initial) {
    Jedis jedis = initial;
    @SuppressWarnings("unchecked")
    Map.Entry<byte[], byte[]>[] from = new Map.Entry[streams.length];
    for (int i = 0; i < streams.length; i++) {
      from[i] = new AbstractMap.SimpleImmutableEntry<>(streams[i], StreamFields.NEW_ENTRIES);
    }
    List<List<byte[]>> acks = new ArrayList<>(streams.length);
    for (int i = 0; i < streams.length; i++) {
      acks.add(new ArrayList<>());
    }
    try {
      while (!closed) {
        try {
          List<Object> reply = jedis.xreadGroup(group, consumerName, params, from);
          if (reply == null || reply.isEmpty()) {
            continue;
          }
          deliver(reply, acks);
          acknowledge(jedis, acks);
        } catch (RuntimeException e) {
          if (closed) {
            return;
          }
          listener.failed(e);
          // Back off briefly (woken at once by close), then start over on a new connection.
          if (closing.await(100, TimeUnit.MILLISECONDS)) {
            return;
          }
          jedis.close();
          jedis = connect.get();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      jedis.close();
    }
  }

  /**
   * Reply shape (RESP2): [[stream, [[id, [field, value, ...]], ...]], ...]. Parsed directly,
   * without building maps, since this runs for every entry.
   */
  private void deliver(List<Object> reply, List<List<byte[]>> acks) {
    for (Object perStream : reply) {
      List<?> s = (List<?>) perStream;
      byte[] stream = (byte[]) s.get(0);
      int partition = indexOf(stream);
      List<byte[]> ids = acks.get(partition);
      for (Object e : (List<?>) s.get(1)) {
        List<?> entry = (List<?>) e;
        ids.add((byte[]) entry.get(0));
        byte[] payload = payloadOf((List<?>) entry.get(1));
        if (payload != null) {
          listener.received(payload, partition);
        }
      }
    }
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

  private static byte[] payloadOf(List<?> fields) {
    if (fields == null) {
      return null; // entry deleted (trimmed) after it was delivered; only ack it
    }
    for (int i = 0; i + 1 < fields.size(); i += 2) {
      if (Arrays.equals((byte[]) fields.get(i), StreamFields.PAYLOAD)) {
        return (byte[]) fields.get(i + 1);
      }
    }
    return null;
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

  @Override
  public void close() throws InterruptedException {
    closed = true;
    closing.countDown();
    // The reader notices within one XREADGROUP block period.
    reader.join(TimeUnit.SECONDS.toMillis(30));
  }
}
