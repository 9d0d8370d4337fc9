package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import io.plumb.load.WorkerClock;
import io.plumb.worker.WorkerException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The clock watch's own connection to a worker's /clock. */
class ClockProbeTest {
  private static final String TOKEN = "s3cret-token";
  private static final long SKEW = 80_000_000;

  @Test
  void measuresAWorkersSkewWithinTheUncertaintyItStates() throws Exception {
    try (WorkerServer server = server(new WorkerClock(SKEW));
        ClockProbe probe = probe(server.port(), TOKEN, Duration.ofSeconds(6))) {
      ClockOffset offset = WorkerSession.measureClock(probe, ClockOffset.CHECK_ROUNDS);
      assertTrue(Math.abs(offset.offsetNanos() - SKEW) <= offset.uncertaintyNanos(), "" + offset);
    }
  }

  @Test
  void aWrongTokenIsBadInputNamingTheWorker() throws Exception {
    try (WorkerServer server = server(new WorkerClock());
        ClockProbe probe = probe(server.port(), "not-the-token", Duration.ofSeconds(6))) {
      String error = assertThrows(BadInputException.class, probe::clock).getMessage();
      assertTrue(error.contains("127.0.0.1:" + server.port() + "/ refused the token"), error);
    }
  }

  @Test
  void aConnectionTheWorkerClosedIsOpenedAgain() throws Exception {
    try (ServerSocket fake = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        ClockProbe probe = probe(fake.getLocalPort(), TOKEN, Duration.ofSeconds(6))) {
      Thread worker =
          new Thread(
              () -> {
                // Each connection gets one answer, then is closed, as an idle one would be.
                for (long nanos = 41; nanos <= 42; nanos++) {
                  try (Socket connection = fake.accept()) {
                    readRequest(connection.getInputStream());
                    String body = "{\"nanos\":" + nanos + "}";
                    connection
                        .getOutputStream()
                        .write(
                            ("HTTP/1.1 200 OK\r\nContent-length: "
                                    + body.length()
                                    + "\r\n\r\n"
                                    + body)
                                .getBytes(StandardCharsets.US_ASCII));
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      worker.start();
      assertEquals(41, probe.clock());
      assertEquals(42, probe.clock());
      worker.join(10_000);
    }
  }

  @Test
  void aWorkerThatDoesNotAnswerIsNamedOnceTheTimeoutIsUp() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    try (ServerSocket silent = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        ClockProbe probe = probe(silent.getLocalPort(), TOKEN, Duration.ofMillis(300))) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket connection = silent.accept()) {
                  done.await(10, TimeUnit.SECONDS);
                } catch (IOException | InterruptedException e) {
                  // the test is over
                }
              });
      acceptor.start();
      long start = System.nanoTime();
      String error = assertThrows(WorkerException.class, probe::clock).getMessage();
      double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(error.contains("did not answer /clock within"), error);
      // Once: a late answer is not taken for a closed connection and tried again.
      assertTrue(seconds < 0.55, "gave up after " + seconds + " s");
      done.countDown();
    }
  }

  private static ClockProbe probe(int port, String token, Duration timeout) {
    return new ClockProbe(
        URI.create("http://127.0.0.1:" + port + "/"), Optional.of(token), null, timeout);
  }

  private static WorkerServer server(WorkerClock clock) throws IOException {
    WorkerServer server =
        LoopbackWorkerServers.create(Optional.of(TOKEN), Duration.ofSeconds(5), clock);
    server.start();
    return server;
  }

  /** Headers up to the blank line, then the probe's two-byte body. */
  private static void readRequest(InputStream in) throws IOException {
    int matched = 0;
    byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    while (matched < end.length) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("closed");
      }
      matched = c == end[matched] ? matched + 1 : (c == end[0] ? 1 : 0);
    }
    in.readNBytes(2);
  }
}
