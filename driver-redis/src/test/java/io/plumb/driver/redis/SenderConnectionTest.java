package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;

/**
 * How a batch's messages complete when its connection breaks between two of their replies. No real
 * server can be made to break at that point on purpose (a primary killed mid-batch does it by
 * chance), so the peer here is a socket that answers the first two XADDs of a batch and then ends
 * the connection.
 */
class SenderConnectionTest {

  private static final int MESSAGES = 4;

  /**
   * With {@code waitReplicas}, a message is acknowledged only once WAIT confirmed its batch's
   * replication. The two XADDs answered before the connection broke are on the primary, but their
   * replication was never confirmed: a failover may well lose them, and they must not count as
   * acknowledged (they would then count as acknowledged and lost).
   */
  @Test
  void aBatchBrokenBetweenItsRepliesIsNotAcknowledgedWithoutItsWait() throws Exception {
    Map<Long, Throwable> outcomes = runBatchAgainstPeerAnsweringTwo(new ReplicaWait(1, 1_000));
    assertEquals(MESSAGES, outcomes.size(), "completed: " + outcomes.keySet());
    for (long token = 0; token < MESSAGES; token++) {
      assertFalse(
          outcomes.get(token) instanceof NoFailure,
          "message " + token + " acknowledged although WAIT never confirmed its batch");
    }
  }

  /** Without WAIT, a message whose XADD was answered is acknowledged: the primary has it. */
  @Test
  void withoutWaitTheMessagesAnsweredBeforeTheBreakAreAcknowledged() throws Exception {
    Map<Long, Throwable> outcomes = runBatchAgainstPeerAnsweringTwo(null);
    assertEquals(MESSAGES, outcomes.size(), "completed: " + outcomes.keySet());
    assertTrue(outcomes.get(0L) instanceof NoFailure, String.valueOf(outcomes.get(0L)));
    assertTrue(outcomes.get(1L) instanceof NoFailure, String.valueOf(outcomes.get(1L)));
    assertFalse(outcomes.get(2L) instanceof NoFailure);
    assertFalse(outcomes.get(3L) instanceof NoFailure);
  }

  /** Stands for "no failure" in the outcomes map, which holds no nulls. */
  private static final class NoFailure extends Throwable {
    private static final long serialVersionUID = 1L;
  }

  private static Map<Long, Throwable> runBatchAgainstPeerAnsweringTwo(ReplicaWait wait)
      throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread peer = new Thread(() -> answerTwoThenEnd(server), "peer");
      peer.start();
      HostAndPort address = new HostAndPort("127.0.0.1", server.getLocalPort());
      // Nothing sent on connecting (no name, no CLIENT SETINFO): the peer sees only the batch.
      JedisClientConfig config =
          DefaultJedisClientConfig.builder()
              .clientSetInfoConfig(ClientSetInfoConfig.DISABLED)
              .socketTimeoutMillis(5_000)
              .build();
      SenderConnection connection =
          new SenderConnection(() -> ProducerConnection.open(address, config), null, wait);
      connection.open();
      CommandEncoder encoder = CommandEncoder.xadd(RedisKeys.partitions("t", 1), 0);
      SendBatch batch = new SendBatch(MESSAGES, 100);
      Map<Long, Throwable> outcomes = new ConcurrentHashMap<>();
      for (long token = 0; token < MESSAGES; token++) {
        encoder.encode(batch.commands, 0, null, new byte[] {'m'});
        batch.added(
            token, 0, (t, failure) -> outcomes.put(t, failure == null ? new NoFailure() : failure));
      }
      assertTrue(connection.write(batch), "written");
      assertFalse(connection.readReplies(batch), "the connection broke");
      batch.complete();
      connection.drop();
      peer.join(5_000);
      return outcomes;
    }
  }

  /** Reads the batch, answers its first two XADDs with IDs, and ends the connection. */
  private static void answerTwoThenEnd(ServerSocket server) {
    try (Socket socket = server.accept()) {
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      in.read(buffer); // the batch's first bytes: enough to know it came
      socket
          .getOutputStream()
          .write("$3\r\n1-1\r\n$3\r\n1-2\r\n".getBytes(StandardCharsets.US_ASCII));
      socket.shutdownOutput();
      while (in.read(buffer) >= 0) {
        // drain until the client closes, so the end is a FIN rather than a reset
      }
    } catch (IOException e) {
      // the test's assertions tell what the client saw
    }
  }
}
