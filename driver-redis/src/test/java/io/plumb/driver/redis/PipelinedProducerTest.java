package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.SendListener;
import io.plumb.testkit.BrokerPort;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ClientKillParams;

/**
 * The producer's pipeline against the real local server (deploy/local/redis.sh start): a bounded
 * window, one completion per message whatever happens, per-message error replies, reconnection, and
 * commands that arrive byte for byte as sent.
 */
class PipelinedProducerTest {

  private static final int PORT =
      Integer.parseInt(System.getenv().getOrDefault("PLUMB_REDIS_PORT", "6379"));

  private static Jedis admin;

  @BeforeAll
  static void serverIsUp() {
    BrokerPort.assertListening("Redis server", PORT, "deploy/local/redis.sh start");
    admin = new Jedis("127.0.0.1", PORT);
  }

  @AfterAll
  static void closeAdmin() {
    if (admin != null) {
      admin.close();
    }
  }

  /** Records every completion per token; fails the test on a second completion. */
  static final class Completions implements SendListener {
    final AtomicIntegerArray times;
    final Map<Long, Throwable> failures = new ConcurrentHashMap<>();
    final AtomicLong completed = new AtomicLong();
    final CountDownLatch all;

    Completions(int messages) {
      times = new AtomicIntegerArray(messages);
      all = new CountDownLatch(messages);
    }

    @Override
    public void sendCompleted(long token, Throwable failure) {
      times.incrementAndGet((int) token);
      if (failure != null) {
        failures.put(token, failure);
      }
      completed.incrementAndGet();
      all.countDown();
    }

    void awaitAll() throws InterruptedException {
      assertTrue(
          all.await(30, TimeUnit.SECONDS),
          "only " + completed.get() + " of " + times.length() + " sends completed");
    }

    void assertEachOnce() {
      for (int i = 0; i < times.length(); i++) {
        assertEquals(1, times.get(i), "completions of message " + i);
      }
    }

    /** Every message completed once, each a failure of {@code type} saying {@code message}. */
    void assertEachFailedOnceWith(Class<? extends Throwable> type, String message) {
      assertEachOnce();
      assertEquals(times.length(), failures.size(), "failed sends");
      for (Throwable failure : failures.values()) {
        assertInstanceOf(type, failure);
        assertEquals(message, failure.getMessage());
      }
    }

    /**
     * Sends message {@code i} of {@code messages} with {@code key.apply(i)}, {@code
     * payload.apply(i)} and token {@code i}, then waits for every completion; closes the producer
     * either way.
     */
    static Completions sendAll(
        PipelinedProducer producer,
        int messages,
        IntFunction<String> key,
        IntFunction<byte[]> payload)
        throws InterruptedException {
      Completions done = new Completions(messages);
      try (producer) {
        for (int i = 0; i < messages; i++) {
          producer.send(key.apply(i), payload.apply(i), i, done);
        }
        done.awaitAll();
      }
      return done;
    }
  }

  static String topic() {
    return "pp-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static PipelinedProducer producer(
      String topic, String clientName, int partitions, int depth, int maxPendingSends) {
    return producer(PORT, topic, clientName, partitions, depth, maxPendingSends, null);
  }

  /** A producer of XADDs to the server on {@code port}, with a WAIT after each batch or none. */
  static PipelinedProducer producer(
      int port,
      String topic,
      String clientName,
      int partitions,
      int depth,
      int maxPendingSends,
      ReplicaWait replicaWait) {
    HostAndPort address = new HostAndPort("127.0.0.1", port);
    DefaultJedisClientConfig config =
        DefaultJedisClientConfig.builder().clientName(clientName).build();
    return new PipelinedProducer(
        () -> ProducerConnection.open(address, config),
        CommandEncoder.xadd(RedisKeys.partitions(topic, partitions), 0),
        topic,
        partitions,
        depth,
        maxPendingSends,
        replicaWait);
  }

  private static void delete(String topic, int partitions) {
    delete(admin, topic, partitions);
  }

  /** Deletes the streams of {@code topic}'s partitions on {@code server}. */
  static void delete(Jedis server, String topic, int partitions) {
    for (int p = 0; p < partitions; p++) {
      server.del(topic + "-" + p);
    }
  }

  @Test
  void everySendCompletesOnceAndNoMoreThanTheWindowIsOutstanding() throws Exception {
    String topic = topic();
    int messages = 20_000;
    int depth = 4;
    int maxPending = 8;
    // Two batches queued behind the two the sender holds.
    int window = (maxPending / depth + 2) * depth;
    Completions done = new Completions(messages);
    byte[] payload = new byte[100];
    long maxOutstanding = 0;
    try (PipelinedProducer producer = producer(topic, "pp-window", 2, depth, maxPending)) {
      for (int i = 0; i < messages; i++) {
        Arrays.fill(payload, (byte) ('a' + i % 26));
        producer.send("k" + i % 50, payload, i, done);
        maxOutstanding = Math.max(maxOutstanding, i + 1 - done.completed.get());
      }
      done.awaitAll();
    }
    done.assertEachOnce();
    assertEquals(Map.of(), done.failures);
    assertTrue(
        maxOutstanding <= window,
        "send() let " + maxOutstanding + " messages be outstanding; the window is " + window);
    assertTrue(maxOutstanding > depth, "the producer never pipelined: " + maxOutstanding);
    assertEquals(messages, admin.xlen(topic + "-0") + admin.xlen(topic + "-1"));
    delete(topic, 2);
  }

  @Test
  void aWaitAnsweredByTooFewReplicasFailsEveryMessageOfItsBatch() throws Exception {
    // The single server has no replica: WAIT 1 answers 0 after its timeout, every time.
    String topic = topic();
    int messages = 40;
    Completions done =
        Completions.sendAll(
            producer(PORT, topic, "pp-wait", 1, 4, 8, new ReplicaWait(1, 10)),
            messages,
            i -> null,
            i -> new byte[] {(byte) i});
    done.assertEachFailedOnceWith(
        ReplicaWait.ReplicationShortfall.class,
        "WAIT 1 10 answered 0: fewer replicas than asked confirmed the batch within 10 ms");
    // The entries are on the primary: a failed send is unconfirmed, not necessarily absent.
    assertEquals(messages, admin.xlen(topic + "-0"));
    delete(topic, 1);
  }

  /**
   * A file's WAIT may block longer than a silent server is given: the producer's connection must
   * still wait for WAIT's own answer rather than time out first, which would fail the batch (and
   * drop the connection) even when the replicas confirm it before the WAIT's timeout.
   */
  @Test
  void aWaitBlockingLongerThanTheSocketTimeoutGetsItsOwnAnswer() throws Exception {
    int waitMillis = RedisEndpoint.DATA_SOCKET_TIMEOUT_MILLIS + 500;
    ReplicaWait wait = new ReplicaWait(1, waitMillis);
    HostAndPort address = new HostAndPort("127.0.0.1", PORT);
    DefaultJedisClientConfig config =
        DefaultJedisClientConfig.builder()
            .clientName("pp-long-wait")
            .socketTimeoutMillis(RedisEndpoint.dataSocketTimeoutMillis(wait))
            .build();
    String topic = topic();
    int messages = 2;
    Completions done =
        Completions.sendAll(
            new PipelinedProducer(
                () -> ProducerConnection.open(address, config),
                CommandEncoder.xadd(RedisKeys.partitions(topic, 1), 0),
                topic,
                1,
                messages,
                messages,
                wait),
            messages,
            i -> null,
            i -> new byte[] {(byte) i});
    // The single server has no replica: WAIT answers 0 once its own timeout has passed.
    done.assertEachFailedOnceWith(
        ReplicaWait.ReplicationShortfall.class,
        "WAIT 1 "
            + waitMillis
            + " answered 0: fewer replicas than asked confirmed the batch within "
            + waitMillis
            + " ms");
    delete(topic, 1);
  }

  @Test
  void entriesHoldThePayloadAndKeyBytesThatWereSent() throws Exception {
    String topic = topic();
    int messages = 300;
    Completions done = new Completions(messages);
    byte[][] sent = new byte[messages][];
    String[] keys = new String[messages];
    try (PipelinedProducer producer = producer(topic, "pp-bytes", 1, 16, 64)) {
      for (int i = 0; i < messages; i++) {
        // Lengths of 1 to 4 decimal digits, bytes that RESP must not interpret, non-ASCII keys.
        sent[i] = new byte[(i * 37) % 2_000];
        for (int b = 0; b < sent[i].length; b++) {
          sent[i][b] = (byte) (i + b * 13);
        }
        keys[i] = i % 3 == 0 ? "clé-" + i + "-\uD83D\uDE00" : "key-" + i;
        byte[] reused = Arrays.copyOf(sent[i], sent[i].length);
        producer.send(keys[i], reused, i, done);
        Arrays.fill(reused, (byte) 0); // the caller may reuse its array once send() returns
      }
      done.awaitAll();
    }
    done.assertEachOnce();
    assertEquals(Map.of(), done.failures);
    List<Map.Entry<byte[], byte[]>> entries = rawEntries(topic + "-0");
    assertEquals(messages, entries.size());
    for (int i = 0; i < messages; i++) {
      assertTrue(Arrays.equals(sent[i], entries.get(i).getKey()), "payload of message " + i);
      assertEquals(
          keys[i],
          new String(entries.get(i).getValue(), StandardCharsets.UTF_8),
          "key of message " + i);
    }
    delete(topic, 1);
  }

  /** Fields p and k of every entry, in order, as raw bytes. */
  @SuppressWarnings("unchecked")
  private static List<Map.Entry<byte[], byte[]>> rawEntries(String stream) {
    List<Object> reply =
        (List<Object>)
            admin.sendCommand(
                redis.clients.jedis.Protocol.Command.XRANGE,
                stream.getBytes(),
                "-".getBytes(),
                "+".getBytes());
    return reply.stream()
        .map(
            e -> {
              List<byte[]> fields = (List<byte[]>) ((List<Object>) e).get(1);
              assertEquals("p", new String(fields.get(0)));
              assertEquals("k", new String(fields.get(2)));
              return Map.entry(fields.get(1), fields.get(3));
            })
        .toList();
  }

  @Test
  void anErrorReplyFailsOnlyItsOwnMessage() throws Exception {
    String topic = topic();
    // Partition 0 is a plain string, so every XADD to it gets a WRONGTYPE error reply.
    admin.set(topic + "-0", "not a stream");
    int messages = 2_000;
    byte[] payload = new byte[64];
    // No key: round robin, even tokens to partition 0.
    Completions done =
        Completions.sendAll(
            producer(topic, "pp-errors", 2, 16, 64), messages, i -> null, i -> payload);
    done.assertEachOnce();
    for (int i = 0; i < messages; i++) {
      Throwable failure = done.failures.get((long) i);
      if (i % 2 == 0) {
        assertInstanceOf(JedisDataException.class, failure, "message " + i);
        assertTrue(failure.getMessage().startsWith("WRONGTYPE"), failure.getMessage());
      } else {
        assertNull(failure, "message " + i);
      }
    }
    assertEquals(messages / 2, admin.xlen(topic + "-1"));
    delete(topic, 2);
  }

  @Test
  void closeCompletesEverySendAndLaterSendsFail() throws Exception {
    String topic = topic();
    int messages = 5_000;
    Completions done = new Completions(messages + 1);
    byte[] payload = new byte[1024];
    PipelinedProducer producer = producer(topic, "pp-close", 1, 16, 1024);
    for (int i = 0; i < messages; i++) {
      producer.send(null, payload, i, done);
    }
    producer.close();
    // close() returns once the sender has written and completed what was queued.
    assertEquals(messages, done.completed.get());
    assertEquals(Map.of(), done.failures);
    producer.send(null, payload, messages, done);
    done.awaitAll();
    done.assertEachOnce();
    assertInstanceOf(IllegalStateException.class, done.failures.get((long) messages));
    assertEquals(messages, admin.xlen(topic + "-0"));
    delete(topic, 1);
  }

  @Test
  void aKilledConnectionFailsWhatWasInFlightAndTheProducerReconnects() throws Exception {
    String topic = topic();
    String name = "pp-kill-" + UUID.randomUUID().toString().substring(0, 8);
    int messages = 20_000;
    Completions done = new Completions(messages);
    byte[] payload = new byte[1024];
    try (PipelinedProducer producer = producer(topic, name, 1, 16, 1024)) {
      for (int i = 0; i < messages; i++) {
        if (i == messages / 2) {
          assertEquals(1L, killClient(name), "producer connections killed");
        }
        producer.send(null, payload, i, done);
      }
      done.awaitAll();
    }
    done.assertEachOnce();
    assertTrue(done.failures.size() > 0, "the kill failed no message");
    done.failures
        .values()
        .forEach(f -> assertInstanceOf(JedisConnectionException.class, f, f.toString()));
    assertNull(done.failures.get((long) messages - 1), "the producer did not reconnect");
    // A killed connection can lose the replies of XADDs the server had already executed, so the
    // stream may hold some of the failed messages too; never fewer than the successes.
    long length = admin.xlen(topic + "-0");
    assertTrue(
        length >= messages - done.failures.size() && length <= messages,
        length + " entries for " + (messages - done.failures.size()) + " successes");
    delete(topic, 1);
  }

  /** CLIENT KILL by name, which Redis 7.0's CLIENT KILL cannot filter on: find the ids. */
  private static long killClient(String name) {
    long killed = 0;
    for (String line : admin.clientList().split("\n")) {
      if (line.contains(" name=" + name + " ")) {
        String id = line.substring("id=".length(), line.indexOf(' '));
        killed += admin.clientKill(new ClientKillParams().id(id));
      }
    }
    return killed;
  }

  @Test
  void encodesXaddAndPublishAsRedisCommands() {
    byte[][] streams = {StreamFields.bytes("t-0"), StreamFields.bytes("t-1")};
    RespBuffer out = new RespBuffer(16);
    CommandEncoder.xadd(streams, 100).encode(out, 1, "key", StreamFields.bytes("abc"));
    CommandEncoder.xadd(streams, 0).encode(out, 0, null, new byte[0]);
    CommandEncoder.publish(streams).encode(out, 0, "ignored", StreamFields.bytes("xy"));
    assertEquals(
        "*10\r\n$4\r\nXADD\r\n$3\r\nt-1\r\n$6\r\nMAXLEN\r\n$1\r\n~\r\n$3\r\n100\r\n$1\r\n*\r\n"
            + "$1\r\np\r\n$3\r\nabc\r\n$1\r\nk\r\n$3\r\nkey\r\n"
            + "*5\r\n$4\r\nXADD\r\n$3\r\nt-0\r\n$1\r\n*\r\n$1\r\np\r\n$0\r\n\r\n"
            + "*3\r\n$7\r\nPUBLISH\r\n$3\r\nt-0\r\n$2\r\nxy\r\n",
        out.toString());
  }

  @Test
  void encodesWaitAsARedisCommand() {
    assertEquals(
        "*3\r\n$4\r\nWAIT\r\n$1\r\n2\r\n$4\r\n1000\r\n",
        new String(new ReplicaWait(2, 1000).command(), StandardCharsets.US_ASCII));
  }
}
