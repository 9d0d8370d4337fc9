package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A producer with its own connection and sender thread. send() copies the payload into a bounded
 * queue; the sender drains up to {@code pipelineDepth} messages at a time, writes them as one
 * pipeline (XADD for streams, PUBLISH for Pub/Sub), and completes each message from its own reply.
 * So at most {@code pipelineDepth} commands are in flight per producer, as with {@code
 * redis-benchmark -P}, and at most {@code maxPendingSends} wait behind them before send() blocks.
 */
final class PipelinedProducer implements BenchmarkProducer {

  /** Builds one command's arguments; the only per-mode difference. */
  interface CommandShape {
    Protocol.Command command();

    byte[][] arguments(byte[] target, byte[] key, byte[] payload);
  }

  /** XADD {@code <key> [MAXLEN ~ n] * p <payload> [k <key>]}: the key travels as a real field. */
  static CommandShape xadd(long maxLen) {
    byte[] cap = maxLen > 0 ? Long.toString(maxLen).getBytes(StandardCharsets.US_ASCII) : null;
    return new CommandShape() {
      @Override
      public Protocol.Command command() {
        return Protocol.Command.XADD;
      }

      @Override
      public byte[][] arguments(byte[] stream, byte[] key, byte[] payload) {
        int n = 4 + (cap != null ? 3 : 0) + (key != null ? 2 : 0);
        byte[][] args = new byte[n][];
        int i = 0;
        args[i++] = stream;
        if (cap != null) {
          args[i++] = StreamFields.MAXLEN;
          args[i++] = StreamFields.APPROXIMATE;
          args[i++] = cap;
        }
        args[i++] = StreamFields.AUTO_ID;
        args[i++] = StreamFields.PAYLOAD;
        args[i++] = payload;
        if (key != null) {
          args[i++] = StreamFields.KEY;
          args[i] = key;
        }
        return args;
      }
    };
  }

  /** PUBLISH {@code <channel> <payload>}: Pub/Sub messages carry no key; it picked the channel. */
  static CommandShape publish() {
    return new CommandShape() {
      @Override
      public Protocol.Command command() {
        return Protocol.Command.PUBLISH;
      }

      @Override
      public byte[][] arguments(byte[] channel, byte[] key, byte[] payload) {
        return new byte[][] {channel, payload};
      }
    };
  }

  private record Pending(
      byte[] target, byte[] key, byte[] payload, long token, SendListener listener) {}

  /** Tells the sender to finish what is queued before it and stop. */
  private static final Pending STOP = new Pending(null, null, null, 0, null);

  private final Supplier<Jedis> connect;
  private final CommandShape shape;
  private final byte[][] targets;
  private final boolean sendKeys;
  private final int depth;
  private final BlockingQueue<Pending> queue;
  private final Thread sender;
  private volatile boolean closed;
  private int roundRobin;

  PipelinedProducer(
      Supplier<Jedis> connect,
      CommandShape shape,
      String topic,
      int partitions,
      boolean sendKeys,
      int depth,
      int maxPendingSends) {
    this.connect = connect;
    this.shape = shape;
    this.targets = RedisKeys.partitions(topic, partitions);
    this.sendKeys = sendKeys;
    this.depth = depth;
    this.queue = new ArrayBlockingQueue<>(maxPendingSends);
    // Connect before returning so a bad address fails createProducer, not the first send.
    Jedis jedis = connect.get();
    this.sender = new Thread(() -> run(jedis), "plumb-redis-sender-" + topic);
    sender.setDaemon(true);
    sender.start();
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    if (closed) {
      listener.sendCompleted(token, new IllegalStateException("producer closed"));
      return;
    }
    byte[] target = targets[RedisKeys.choose(key, targets.length, roundRobin++)];
    byte[] keyBytes = sendKeys && key != null ? key.getBytes(StandardCharsets.UTF_8) : null;
    // The sender writes the payload after send() returns; the framework reuses the array.
    Pending p =
        new Pending(target, keyBytes, Arrays.copyOf(payload, payload.length), token, listener);
    try {
      queue.put(p);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      listener.sendCompleted(token, e);
    }
  }

  private void run(Jedis initial) {
    Jedis jedis = initial;
    Pipeline pipeline = jedis.pipelined();
    List<Pending> batch = new ArrayList<>(depth);
    @SuppressWarnings("unchecked")
    Response<Object>[] replies = new Response[depth];
    boolean stopping = false;
    try {
      while (!stopping) {
        batch.add(queue.take());
        queue.drainTo(batch, depth - 1);
        int n = 0;
        for (Pending p : batch) {
          if (p == STOP) {
            stopping = true;
            break;
          }
          replies[n++] =
              pipeline.sendCommand(
                  shape.command(), shape.arguments(p.target(), p.key(), p.payload()));
        }
        if (n > 0) {
          try {
            pipeline.sync();
            for (int i = 0; i < n; i++) {
              Pending p = batch.get(i);
              Throwable failure = null;
              try {
                replies[i].get();
              } catch (RuntimeException e) {
                failure = e;
              }
              p.listener().sendCompleted(p.token(), failure);
            }
          } catch (RuntimeException e) {
            // The whole round trip failed (connection lost): fail its messages, reconnect.
            for (int i = 0; i < n; i++) {
              Pending p = batch.get(i);
              p.listener().sendCompleted(p.token(), e);
            }
            if (e instanceof JedisConnectionException) {
              jedis.close();
              jedis = connect.get();
              pipeline = jedis.pipelined();
            }
          }
        }
        // Anything drained after STOP (sends racing close) is failed below.
        for (int i = n + (stopping ? 1 : 0); i < batch.size(); i++) {
          Pending p = batch.get(i);
          p.listener().sendCompleted(p.token(), new IllegalStateException("producer closed"));
        }
        batch.clear();
        Arrays.fill(replies, 0, n, null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // Reconnecting failed: fail what is queued so every send still completes once.
      failQueued(e);
    } finally {
      jedis.close();
    }
    failQueued(new IllegalStateException("producer closed"));
  }

  private void failQueued(Throwable why) {
    Pending p;
    while ((p = queue.poll()) != null) {
      if (p != STOP) {
        p.listener().sendCompleted(p.token(), why);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (closed) {
      return;
    }
    closed = true;
    // Waits for room if the queue is full; the sender keeps draining until it reaches STOP.
    if (!queue.offer(STOP, 30, TimeUnit.SECONDS)) {
      sender.interrupt();
    }
    sender.join(TimeUnit.SECONDS.toMillis(30));
  }
}
