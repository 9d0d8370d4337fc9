package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.SendListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.XAddParams;

/**
 * The producer on Jedis's own pipelining ({@code producer: jedis}), beside the hand-written RESP
 * sender of {@link PipelinedProducer} ({@code producer: resp}, the default), to measure what the
 * latter saves. Same shape: one connection and one sender thread, which takes up to {@code depth}
 * queued messages, queues their XADDs (or PUBLISHes, and a WAIT with {@code waitReplicas}) on a
 * {@link Pipeline}, syncs (one write, all replies read) and completes each message from its own
 * {@link Response}. Jedis encodes every argument of every command in objects of its own, and send()
 * copies the payload, since Jedis holds the array until the batch is written.
 *
 * <p>Failures and failover as in {@link PipelinedProducer}: a broken connection fails the batch in
 * flight, the sender connects to the primary of the moment before the next batch, a failed attempt
 * fails the batch it was for and the next comes {@link PipelinedProducer#RECONNECT_PAUSE_MILLIS}
 * later, {@link #primaryChanged} aborts a connection to a former primary, and send() waits for room
 * at most {@code maxBlockMillis}.
 */
final class JedisPipelineProducer extends PrimaryFollowingProducer {

  /** A queued message; {@code header} is null for a plain send. */
  private record Pending(
      int partition, String key, byte[] header, byte[] payload, long token, SendListener l) {}

  private final boolean streams;
  private final byte[][] keys;
  private final XAddParams xaddParams;
  private final ReplicaWait replicaWait;
  private final int partitions;
  private final int depth;
  private final long maxBlockMillis;
  private final BlockingQueue<Pending> queue;
  private final Thread sender;
  private final HeldConnection<ProducerConnection> connection; // the sender's; aborted by others
  private volatile boolean closed;
  private volatile boolean stalled;
  private int roundRobin; // the calling thread's

  /**
   * @param connect opens a connection to the primary of the moment
   * @param primary the primary now, which the sender follows; null for a fixed server
   */
  JedisPipelineProducer(
      Supplier<ProducerConnection> connect,
      Supplier<HostAndPort> primary,
      boolean streams,
      String topic,
      int partitions,
      long maxLen,
      int depth,
      int maxPendingSends,
      long maxBlockMillis,
      ReplicaWait replicaWait) {
    super(streams);
    this.connection = new HeldConnection<>(connect, primary);
    this.streams = streams;
    this.keys = RedisKeys.partitions(topic, partitions);
    this.xaddParams =
        maxLen > 0
            ? XAddParams.xAddParams().maxLen(maxLen).approximateTrimming()
            : XAddParams.xAddParams();
    this.replicaWait = replicaWait;
    this.partitions = partitions;
    this.depth = depth;
    this.maxBlockMillis = maxBlockMillis;
    this.queue = new ArrayBlockingQueue<>(maxPendingSends);
    // Connect before returning so a bad address fails createProducer, not the first send.
    connection.connect();
    this.sender = DaemonThreads.start("plumb-redis-jedis-sender-" + topic, this::run);
  }

  /**
   * Queues the message for the sender, the header as the entry field {@value StreamHeader#NAME} as
   * in {@link PipelinedProducer}; both arrays are copied, since Jedis holds them until the batch is
   * written.
   */
  @Override
  void enqueue(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    int partition = BenchmarkProducer.partitionFor(key, partitions, roundRobin++);
    if (closed) {
      listener.sendCompleted(token, partition, new IllegalStateException("producer closed"));
      return;
    }
    Pending p =
        new Pending(
            partition,
            key,
            header == null ? null : header.clone(),
            payload.clone(),
            token,
            listener);
    try {
      if (queue.offer(p) || (!stalled && queue.offer(p, maxBlockMillis, TimeUnit.MILLISECONDS))) {
        stalled = false;
        return;
      }
      stalled = true;
      listener.sendCompleted(
          token,
          partition,
          new BatchRing.NoRoom(queue.size(), maxBlockMillis)); // queue full for too long
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      listener.sendCompleted(token, partition, e);
    }
  }

  private void run() {
    List<Pending> batch = new ArrayList<>(depth);
    try {
      while (true) {
        Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
          if (closed) {
            return;
          }
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, depth - 1);
        boolean connecting = false;
        try {
          if (!connection.onPrimary()) {
            connection.drop();
            connecting = true;
            connection.connect();
            connecting = false;
          }
          send(batch);
        } catch (RuntimeException e) {
          // Refused or broken before the replies were read: the whole batch fails.
          for (Pending p : batch) {
            p.l().sendCompleted(p.token(), p.partition(), e);
          }
          connection.drop();
          if (connecting) {
            Thread.sleep(PipelinedProducer.RECONNECT_PAUSE_MILLIS);
          }
        }
        batch.clear();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      connection.drop();
      failQueued();
    }
  }

  private void failQueued() {
    Pending p;
    while ((p = queue.poll()) != null) {
      p.l().sendCompleted(p.token(), p.partition(), new IllegalStateException("producer closed"));
    }
  }

  /**
   * Pipelines the batch and completes every message from its own reply. Throws, completing nothing,
   * if the connection broke before the replies were read.
   */
  private void send(List<Pending> batch) {
    Pipeline pipeline = new Pipeline(connection.get().connection());
    List<Response<?>> replies = new ArrayList<>(batch.size());
    for (Pending p : batch) {
      if (streams) {
        Map<byte[], byte[]> fields = new LinkedHashMap<>(4);
        fields.put(StreamFields.PAYLOAD, p.payload());
        // After the payload, as PipelinedProducer encodes it.
        if (p.header() != null) {
          fields.put(StreamFields.HEADER, p.header());
        }
        if (p.key() != null) {
          fields.put(StreamFields.KEY, StreamFields.bytes(p.key()));
        }
        replies.add(pipeline.xadd(keys[p.partition()], xaddParams, fields));
      } else {
        replies.add(
            pipeline.sendCommand(Protocol.Command.PUBLISH, keys[p.partition()], p.payload()));
      }
    }
    Response<Long> wait =
        replicaWait == null
            ? null
            : pipeline.waitReplicas(replicaWait.replicas(), replicaWait.timeoutMillis());
    pipeline.sync();
    RuntimeException shortfall = null;
    if (wait != null) {
      try {
        shortfall = replicaWait.check(wait.get());
      } catch (RuntimeException e) {
        shortfall = e;
      }
    }
    for (int i = 0; i < batch.size(); i++) {
      Pending p = batch.get(i);
      Throwable failure = shortfall;
      try {
        replies.get(i).get();
      } catch (RuntimeException e) {
        failure = e;
      }
      p.l().sendCompleted(p.token(), p.partition(), failure);
    }
  }

  /** Sentinel named a new primary: a connection to another server is aborted at once. */
  @Override
  void primaryChanged(HostAndPort now) {
    connection.abortIfNotTo(now);
  }

  @Override
  void stopSender() throws InterruptedException {
    closed = true;
    sender.join(TimeUnit.SECONDS.toMillis(30));
    if (sender.isAlive()) {
      connection.abort();
      sender.join();
    }
    failQueued(); // a send that raced with close
  }
}
