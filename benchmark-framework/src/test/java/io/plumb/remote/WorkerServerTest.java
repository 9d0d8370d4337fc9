package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import io.plumb.load.Pacing;
import io.plumb.load.WorkerClock;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.worker.WorkerException;
import io.plumb.worker.WorkerSpecs;
import io.plumb.workload.KeyDistributorType;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** The control channel's guards, on an in-process server. */
class WorkerServerTest {
  private static final String TOKEN = "s3cret-token";
  @TempDir Path dir;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  private WorkerServer start(SSLContext tls, long maxRequestBytes) throws Exception {
    WorkerServer server =
        new WorkerServer(
            new WorkerServer.Settings(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                Optional.of(TOKEN),
                tls,
                Duration.ofSeconds(5),
                maxRequestBytes,
                1),
            new WorkerClock(),
            new PrintStream(log, true, StandardCharsets.UTF_8));
    server.start();
    return server;
  }

  @Test
  void anUnreachableWorkerIsNamedWithinSeconds() throws Exception {
    URI closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/");
    }
    long start = System.nanoTime();
    String error =
        messageOf(
            BadInputException.class,
            () ->
                DistributedWorkers.connect(
                    List.of(new HttpWorker(closed, Optional.of(TOKEN), null)), WorkerRoles.SPLIT));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(error.startsWith("--workers: worker " + closed + " cannot be reached"), error);
    assertTrue(seconds < 10, "named after " + seconds + " s");
  }

  /**
   * A control call is one small request and one small answer: with Nagle's algorithm left on, each
   * answer waits for the client's delayed acknowledgement (40 ms), and the tightest of the clock's
   * round trips could never be under that, leaving offsets uncertain by 20 ms or more.
   */
  @Test
  void controlCallsDoNotWaitForDelayedAcknowledgements() throws Exception {
    try (WorkerServer server = start(null, 1 << 20)) {
      HttpWorker worker = LoopbackWorkerServers.client(server, Optional.of(TOKEN));
      WorkerClock coordinator = new WorkerClock();
      ClockOffset.measure(coordinator::now, worker::clock, 3);
      ClockOffset offset = ClockOffset.measure(coordinator::now, worker::clock, ClockOffset.ROUNDS);
      assertTrue(offset.uncertaintyNanos() < 15_000_000, "clock offset " + offset);
      assertTrue(Math.abs(offset.offsetNanos()) <= offset.uncertaintyNanos(), "offset " + offset);
    }
  }

  @Test
  void onlyDriverClassesAreEverLoadedFromACoordinatorsDriverFile() throws Exception {
    try (WorkerServer server = start(null, 1 << 20)) {
      HttpWorker worker = LoopbackWorkerServers.client(server, Optional.of(TOKEN));
      String error =
          messageOf(
              BadInputException.class,
              () ->
                  worker.initializeDriver(
                      new WorkerSpecs.DriverSetup(
                          "evil.yaml",
                          "name: evil\ndriverClass: java.lang.ProcessBuilder\n",
                          Map.of()),
                      1));
      assertTrue(error.contains("evil.yaml"), error);
      assertTrue(error.contains("does not implement io.plumb.driver.BenchmarkDriver"), error);
      worker.close();
    }
  }

  @Test
  void adjustRateOverHttpChangesTheProducersScheduleAndRefusesABadRateInOneLine() throws Exception {
    try (WorkerServer server = start(null, 1 << 20)) {
      HttpWorker worker = LoopbackWorkerServers.client(server, Optional.of(TOKEN));
      String noRun = messageOf(WorkerException.class, () -> worker.adjustRate(100));
      assertTrue(noRun.contains("no run in progress"), noRun);

      startLoopbackLoad(worker, 3, 100);
      String bad = messageOf(BadInputException.class, () -> worker.adjustRate(-1));
      assertTrue(bad.contains("rate per producer"), bad);
      assertTrue(!bad.contains("\n"), bad);

      long[] sent = {0};
      worker.adjustRate(4_000);
      // Three sends after the call, the producer's thread has switched (it does so before its next
      // send) and sent the first message of the new rate.
      awaitSent(worker, sent, 3);
      WorkerClock clock = new WorkerClock();
      long firstBefore = clock.now();
      awaitSent(worker, sent, 0);
      long firstDue = sent[0] + worker.scheduleLag();
      long firstAfter = clock.now();
      awaitSent(worker, sent, 1_000);
      long secondBefore = clock.now();
      awaitSent(worker, sent, 0);
      long secondDue = sent[0] + worker.scheduleLag();
      long secondAfter = clock.now();
      // Messages due (sent plus lag) grew at the new rate, forty times the old one; the clock
      // readings bracket each reading, so a slow round trip cannot fail it.
      long due = secondDue - firstDue;
      assertTrue(
          due >= 4_000 * (secondBefore - firstAfter) / 1e9 - 2
              && due <= 4_000 * (secondAfter - firstBefore) / 1e9 + 2,
          due + " due in " + (secondAfter - firstBefore) / 1e6 + " ms");
      worker.stopLoad();
      worker.closeClients(List.of());
      worker.close();
    }
  }

  @Test
  void aDriverThatCannotPauseConsumersAnswers501AndTheCoordinatorSeesUnsupportedNamingTheWorker()
      throws Exception {
    try (WorkerServer server = start(null, 1 << 20)) {
      URI uri = URI.create("http://127.0.0.1:" + server.port() + "/");
      HttpWorker worker = new HttpWorker(uri, Optional.of(TOKEN), null);
      worker.initializeDriver(
          new WorkerSpecs.DriverSetup(
              "capacity.yaml",
              "name: Capacity\ndriverClass: io.plumb.search.CapacityDriver\ncapacity: 1000\n",
              Map.of()),
          4);
      worker.createTopics(List.of(new WorkerSpecs.TopicSpec("t", 1)));
      worker.createConsumers(List.of(new WorkerSpecs.ConsumerSpec("t", "s")));
      // The same exception a local worker throws, so the run words it the same way.
      String error = messageOf(UnsupportedOperationException.class, worker::pauseConsumers);
      assertTrue(error.startsWith("worker " + uri + ": "), error);
      assertTrue(error.contains("cannot pause consumers"), error);
      assertTrue(!error.contains("\n"), error);
      assertThrows(UnsupportedOperationException.class, worker::resumeConsumers);
      worker.closeClients(List.of());
      worker.close();
    }
  }

  /**
   * A second coordinator pointed at a worker that is busy with another's run is refused (409) and
   * its run fails; its teardown (close clients, close) and its heartbeats must not touch the run it
   * was refused, which goes on as if nothing had happened.
   */
  @Test
  void aSecondCoordinatorRefusedAWorkerLeavesTheFirstCoordinatorsRunAlone() throws Exception {
    try (WorkerServer server =
        LoopbackWorkerServers.create(Optional.of(TOKEN), Duration.ofSeconds(30))) {
      server.start();
      HttpWorker first = LoopbackWorkerServers.client(server, Optional.of(TOKEN));
      startLoopbackLoad(first, 1, 1_000);

      Path workload = dir.resolve("second.yaml");
      io.plumb.workload.WorkloadYaml.oneTopic()
          .named("second")
          .rate(100)
          .seconds(1)
          .writeTo(workload);
      DistributedWorkers second =
          DistributedWorkers.connect(
              List.of(LoopbackWorkerServers.client(server, Optional.of(TOKEN))), WorkerRoles.BOTH);
      io.plumb.result.RunReport refused;
      try {
        refused =
            DistributedRuns.prepare(
                    workload, LoopbackDriverFile.write(dir), second, Duration.ofSeconds(1))
                .execute();
      } finally {
        second.close();
      }
      assertTrue(!refused.complete(), "the second coordinator's run cannot have run");
      assertTrue(
          refused.incompleteReason().contains("another coordinator"), refused.incompleteReason());

      // The first coordinator's run goes on: its producer still sends, and it ends it itself.
      first.takePeriod();
      long sent = 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (sent == 0 && System.nanoTime() < deadline) {
        java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
        sent += first.takePeriod().sent();
      }
      assertTrue(sent > 0, "the first run's producer sends after the second was refused");
      first.stopLoad();
      first.closeClients(List.of());
      first.close();
    }
  }

  /**
   * A stranger without the token who opens connections and never finishes a request's headers must
   * not keep the coordinator's calls (and with them its lease renewals) from being served.
   */
  @Test
  void strangersHoldingHalfSentRequestsDoNotShutTheCoordinatorOut() throws Exception {
    try (WorkerServer server = start(null, 1 << 20)) {
      List<java.net.Socket> strangers = new java.util.ArrayList<>();
      try {
        for (int i = 0; i < 8; i++) {
          java.net.Socket socket =
              new java.net.Socket(InetAddress.getLoopbackAddress(), server.port());
          socket
              .getOutputStream()
              .write(
                  "POST /worker/close HTTP/1.1\r\nHost: worker\r\n"
                      .getBytes(StandardCharsets.US_ASCII));
          socket.getOutputStream().flush();
          strangers.add(socket);
        }
        HttpWorker worker = LoopbackWorkerServers.client(server, Optional.of(TOKEN));
        long before = new WorkerClock().now();
        assertTrue(worker.clock() >= before - 1_000_000_000L, "the coordinator is served");
      } finally {
        for (java.net.Socket socket : strangers) {
          socket.close();
        }
      }
    }
  }

  /** The message of the {@code type} that {@code call} must throw. */
  private static String messageOf(Class<? extends Throwable> type, Executable call) {
    return assertThrows(type, call).getMessage();
  }

  /** Adds periods to {@code sent} until it has grown by {@code more} (bounded). */
  private static void awaitSent(HttpWorker worker, long[] sent, long more) throws Exception {
    long target = sent[0] + more;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    do {
      sent[0] += worker.takePeriod().sent();
      if (sent[0] >= target) {
        return;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
    } while (System.nanoTime() < deadline);
    throw new java.util.concurrent.TimeoutException("sent " + sent[0] + " of " + target);
  }

  /**
   * A web page in a browser on the worker's host reaches a loopback worker too: its requests carry
   * Origin, and after DNS rebinding the page's own host name in Host. The coordinator's carry
   * neither, and are served.
   */
  @Test
  void requestsFromWebPagesAreRefusedWith403() throws Exception {
    try (WorkerServer server = start(null, 1024)) {
      int port = server.port();
      assertEquals(200, status(port, "127.0.0.1:" + port, ""));
      assertEquals(200, status(port, "localhost:" + port, ""));
      assertEquals(403, status(port, "127.0.0.1:" + port, "Origin: http://evil.example\r\n"));
      assertEquals(403, status(port, "rebound.evil.example:" + port, ""));
    }
  }

  /**
   * Initialises {@code worker} with the loopback driver on {@code producerThreads} threads and
   * starts one producer of 64-byte messages on topic "t" at {@code rate} msg/s, from an empty
   * period.
   */
  private static void startLoopbackLoad(HttpWorker worker, int producerThreads, double rate)
      throws Exception {
    worker.initializeDriver(
        new WorkerSpecs.DriverSetup("loopback.yaml", LoopbackDriverFile.TEXT, Map.of()),
        producerThreads);
    worker.createTopics(List.of(new WorkerSpecs.TopicSpec("t", 1)));
    worker.createProducers(
        List.of(new WorkerSpecs.ProducerSpec(0, "t")),
        new WorkerSpecs.MessageSpec(64, KeyDistributorType.NO_KEY, List.of(new byte[64]), false));
    worker.takePeriod();
    worker.startLoad(new WorkerSpecs.LoadSpec(rate, 0, Pacing.EFFICIENT));
  }

  /** The status of a POST /clock with the token, {@code host} and {@code extraHeaders}. */
  private static int status(int port, String host, String extraHeaders) throws Exception {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(10_000);
      String request =
          "POST /clock HTTP/1.1\r\nHost: "
              + host
              + "\r\nAuthorization: Bearer "
              + TOKEN
              + "\r\n"
              + extraHeaders
              + "Content-Length: 2\r\nConnection: close\r\n\r\n{}";
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      String statusLine =
          new BufferedReader(
                  new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
              .readLine();
      return Integer.parseInt(statusLine.split(" ")[1]);
    }
  }

  @Test
  void anOversizedBodyIsRefusedWith413() throws Exception {
    try (WorkerServer server = start(null, 1024)) {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/clock"))
                      .header("Authorization", "Bearer " + TOKEN)
                      .POST(HttpRequest.BodyPublishers.ofString("x".repeat(4096)))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(413, response.statusCode());
    }
  }

  @Test
  void servesTheControlChannelOverTlsToACoordinatorThatTrustsItsCertificate() throws Exception {
    Path keystore = dir.resolve("worker.p12");
    Path password = Files.writeString(dir.resolve("password"), "changeit-worker\n");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "worker",
                "-keyalg",
                "EC",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "san=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "changeit-worker")
            .redirectErrorStream(true)
            .start();
    assertTrue(keytool.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, keytool.exitValue(), new String(keytool.getInputStream().readAllBytes()));

    SSLContext serverTls = TlsContexts.server(keystore, password, "--tls-keystore");
    try (WorkerServer server = start(serverTls, 1 << 20)) {
      URI uri = URI.create("https://127.0.0.1:" + server.port() + "/");
      HttpWorker trusting =
          new HttpWorker(
              uri, Optional.of(TOKEN), TlsContexts.client(keystore, password, "--tls-truststore"));
      long before = new WorkerClock().now();
      assertTrue(trusting.clock() >= before - 1_000_000_000L, "a clock reading over TLS");
      // The clock watch's own connection checks the certificate as the HttpClient does.
      try (ClockProbe probe = trusting.clockProbe()) {
        assertTrue(probe.clock() >= before - 1_000_000_000L, "a clock probe over TLS");
      }

      // A coordinator that does not trust the certificate gets nowhere, and is told which worker.
      HttpWorker untrusting = new HttpWorker(uri, Optional.of(TOKEN), null);
      String error = messageOf(WorkerException.class, untrusting::clock);
      assertTrue(error.contains(uri.toString()), error);
      try (ClockProbe probe = untrusting.clockProbe()) {
        String refused = messageOf(WorkerException.class, probe::clock);
        assertTrue(refused.contains(uri.toString()), refused);
      }
    }
    assertTrue(!log.toString(StandardCharsets.UTF_8).contains(TOKEN), "the token is never logged");
  }
}
