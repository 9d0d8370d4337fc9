package io.plumb.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.plumb.input.BadInputException;
import io.plumb.input.UnreachableBrokerException;
import io.plumb.load.WorkerClock;
import io.plumb.resources.ResourceSource;
import io.plumb.resources.SnapshotReader;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * Serves one {@link LocalWorker} over HTTP/JSON to a coordinator: every call of {@link
 * io.plumb.worker.Worker} is a POST to {@code /worker/<call>}, plus {@code /clock} for offset
 * measurement, {@code /lease} for the coordinator's heartbeat and {@code /metrics} for Prometheus.
 *
 * <p>Built on the JDK's own HTTP server: a handful of endpoints need no framework, and the worker's
 * classpath stays clear of anything that could clash with the broker clients' dependencies.
 */
public final class WorkerServer implements AutoCloseable {
  /** How the worker listens and whom it serves. */
  public record Settings(
      InetSocketAddress bind,
      Optional<String> token,
      SSLContext tls,
      Duration leaseTimeout,
      long maxRequestBytes,
      int producerThreads) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Settings settings;
  private final WorkerClock clock;
  private final PrintStream log;
  private final HttpServer server;
  private final ExecutorService requests = Executors.newFixedThreadPool(4, daemon("plumb-http"));
  private final ScheduledExecutorService watchdog =
      Executors.newSingleThreadScheduledExecutor(daemon("plumb-lease"));
  private final Lease lease;
  private final WorkerMetrics metrics = new WorkerMetrics();
  private final ResourceSource resources = SnapshotReader.open(List.of());
  private final Map<String, Call> calls = new HashMap<>();
  private final Object workerLock = new Object();
  private LocalWorker worker;
  private Path driverDirectory;

  @FunctionalInterface
  private interface Call {
    Object handle(byte[] body) throws IOException;
  }

  static {
    // The JDK's HTTP server leaves Nagle's algorithm on, so each small answer waited for the
    // client's delayed acknowledgement: about 48 ms a call on loopback, which slowed every control
    // call and left clock offsets off by about 21 ms (± 22 ms). Read once, before the first server.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  public WorkerServer(Settings settings, WorkerClock clock, PrintStream log) throws IOException {
    this.settings = settings;
    this.clock = clock;
    this.log = log;
    this.lease = new Lease(settings.leaseTimeout());
    if (settings.tls() != null) {
      HttpsServer https = HttpsServer.create(settings.bind(), 0);
      https.setHttpsConfigurator(new HttpsConfigurator(settings.tls()));
      server = https;
    } else {
      server = HttpServer.create(settings.bind(), 0);
    }
    server.setExecutor(requests);
    server.createContext("/", this::serve);
    registerCalls();
  }

  public void start() {
    server.start();
    watchdog.scheduleWithFixedDelay(this::checkLease, 500, 500, TimeUnit.MILLISECONDS);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    watchdog.shutdownNow();
    requests.shutdownNow();
    synchronized (workerLock) {
      endRun();
    }
    resources.close();
  }

  private void registerCalls() {
    calls.put("/clock", body -> new WireMessages.Clock(clock.now()));
    calls.put("/lease", body -> Map.of("leaseSeconds", settings.leaseTimeout().toSeconds()));
    // Read whether or not a run is on: the coordinator samples from its measured phase's start.
    calls.put("/worker/resources", body -> resources.read());
    calls.put(
        "/worker/initialize",
        body -> {
          WireMessages.Initialize request = read(body, WireMessages.Initialize.class);
          synchronized (workerLock) {
            if (worker != null && lease.armed()) {
              throw new BusyException();
            }
            endRun();
            worker = new LocalWorker(settings.producerThreads(), clock);
            lease.arm();
            log.println("run " + request.runId() + ": initialising " + request.setup().fileName());
            DriverSetup copy = privateCopy(request.setup());
            try {
              return worker.initializeDriver(copy, request.runId());
            } catch (UnreachableBrokerException e) {
              throw new UnreachableBrokerException(asUserNamedIt(e, copy, request.setup()));
            } catch (BadInputException e) {
              throw new BadInputException(asUserNamedIt(e, copy, request.setup()));
            }
          }
        });
    calls.put(
        "/worker/clock-corrections",
        body -> {
          List<Long> slots = read(body, WireMessages.Corrections.class).nanosBySlot();
          return withWorker(w -> w.applyClockCorrections(ClockCorrections.bySlot(slots)));
        });
    calls.put(
        "/worker/create-topics",
        body -> answer(w -> w.createTopics(read(body, WireMessages.Topics.class).topics())));
    calls.put(
        "/worker/create-consumers",
        body ->
            withWorker(
                w -> w.createConsumers(read(body, WireMessages.Consumers.class).consumers())));
    calls.put(
        "/worker/create-producers",
        body -> {
          WireMessages.Producers request = read(body, WireMessages.Producers.class);
          return withWorker(w -> w.createProducers(request.producers(), request.messages()));
        });
    calls.put("/worker/send-probes", body -> withWorker(LocalWorker::sendProbes));
    calls.put("/worker/probes-received", body -> answer(LocalWorker::probesReceived));
    calls.put(
        "/worker/start-load",
        body -> {
          LoadSpec load = read(body, LoadSpec.class);
          return withWorker(w -> w.startLoad(load));
        });
    calls.put(
        "/worker/adjust-rate",
        body -> {
          double rate = read(body, WireMessages.Rate.class).ratePerProducer();
          return withWorker(w -> w.adjustRate(rate));
        });
    calls.put("/worker/pause-consumers", body -> withWorker(LocalWorker::pauseConsumers));
    calls.put("/worker/resume-consumers", body -> withWorker(LocalWorker::resumeConsumers));
    calls.put(
        "/worker/take-period",
        body -> {
          PeriodStats period = answer(LocalWorker::takePeriod);
          metrics.record(period);
          return WireMessages.Period.of(period);
        });
    calls.put(
        "/worker/schedule-lag", body -> new WireMessages.Count(answer(LocalWorker::scheduleLag)));
    calls.put("/worker/stop-load", body -> withWorker(LocalWorker::stopLoad));
    calls.put(
        "/worker/totals",
        body -> new WireMessages.EncodedTotals(TotalsCodec.encode(answer(LocalWorker::totals))));
    calls.put(
        "/worker/first-errors", body -> new WireMessages.Errors(answer(LocalWorker::firstErrors)));
    calls.put(
        "/worker/close-clients",
        body -> {
          List<String> topics = read(body, WireMessages.CloseClients.class).topicsToDelete();
          return withWorker(w -> w.closeClients(topics));
        });
    calls.put(
        "/worker/close",
        body -> {
          synchronized (workerLock) {
            lease.disarm();
            if (worker != null) {
              LocalWorker closing = worker;
              worker = null;
              closing.close();
            }
            deleteDriverCopy();
          }
          return Map.of();
        });
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (settings.token().isPresent()
          && !Tokens.matches(
              exchange.getRequestHeaders().getFirst("Authorization"), settings.token().get())) {
        // Nothing else: no hint of what exists behind the door.
        metrics.unauthorized();
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/metrics") && exchange.getRequestMethod().equals("GET")) {
        respond(
            exchange, 200, PrometheusText.CONTENT_TYPE, PrometheusText.render(metrics.registry()));
        return;
      }
      Call call = calls.get(path);
      if (call == null || !exchange.getRequestMethod().equals("POST")) {
        respondJson(exchange, 404, new WireMessages.Failure("no such call: " + path, false));
        return;
      }
      byte[] body = readBounded(exchange.getRequestBody(), settings.maxRequestBytes());
      if (body == null) {
        respondJson(
            exchange,
            413,
            new WireMessages.Failure(
                "request body over " + settings.maxRequestBytes() + " bytes", true));
        return;
      }
      if (lease.armed()) {
        lease.renew();
      }
      Object result;
      try {
        result = call.handle(body);
      } catch (BusyException e) {
        respondJson(
            exchange,
            409,
            new WireMessages.Failure(
                "this worker is serving another coordinator's run; wait for it to end or for its lease ("
                    + settings.leaseTimeout().toSeconds()
                    + " s) to run out",
                false));
        return;
      } catch (UnreachableBrokerException e) {
        // 503 with the bad-input flag: the coordinator raises the same exception a local worker
        // does, so the run ends with the same line and exit status.
        respondJson(exchange, 503, new WireMessages.Failure(e.getMessage(), true));
        return;
      } catch (BadInputException e) {
        respondJson(exchange, 400, new WireMessages.Failure(e.getMessage(), true));
        return;
      } catch (UnsupportedOperationException e) {
        // 501: the driver cannot do what was asked (pause consumers); the coordinator turns it
        // back into the exception a local worker throws.
        respondJson(exchange, 501, new WireMessages.Failure(String.valueOf(e.getMessage()), false));
        return;
      } catch (RuntimeException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        log.println("request " + path + " failed: " + message);
        respondJson(exchange, 500, new WireMessages.Failure(message, false));
        return;
      }
      respondJson(exchange, 200, result);
    }
  }

  private void checkLease() {
    if (!lease.expire()) {
      return;
    }
    metrics.leaseExpired();
    log.println(
        "lease expired: no word from the coordinator for "
            + settings.leaseTimeout().toSeconds()
            + " s; stopping load and closing clients");
    synchronized (workerLock) {
      endRun();
    }
  }

  /** Stops whatever run is under way and releases its clients and driver. Holds workerLock. */
  private void endRun() {
    if (worker == null) {
      return;
    }
    LocalWorker ending = worker;
    worker = null;
    lease.disarm();
    try {
      ending.stopLoad();
      ending.closeClients(List.of());
    } catch (RuntimeException e) {
      log.println("closing clients: " + e.getMessage());
    }
    try {
      ending.close();
    } catch (RuntimeException e) {
      log.println("closing driver: " + e.getMessage());
    }
    deleteDriverCopy();
  }

  /**
   * The driver file as the coordinator sent it, in a private directory under its own name: a file
   * of the same path on this host is never read instead, and error messages name the user's file.
   */
  /** The message with the worker's private copy named as the coordinator's user named the file. */
  private static String asUserNamedIt(RuntimeException e, DriverSetup copy, DriverSetup original) {
    return e.getMessage().replace(copy.fileName(), original.fileName());
  }

  private DriverSetup privateCopy(DriverSetup setup) throws IOException {
    deleteDriverCopy();
    driverDirectory = Files.createTempDirectory("plumb-worker-");
    Path name = Path.of(setup.fileName()).getFileName();
    Path copy = driverDirectory.resolve(name == null ? "driver.yaml" : name.toString());
    Files.writeString(copy, setup.yaml());
    return new DriverSetup(copy.toString(), setup.yaml(), setup.overrides());
  }

  private void deleteDriverCopy() {
    if (driverDirectory == null) {
      return;
    }
    try (var files = Files.list(driverDirectory)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(driverDirectory);
    } catch (IOException e) {
      log.println("could not delete " + driverDirectory + ": " + e.getMessage());
    }
    driverDirectory = null;
  }

  private interface WorkerAction {
    void apply(LocalWorker worker);
  }

  private interface WorkerQuery<T> {
    T apply(LocalWorker worker);
  }

  private Object withWorker(WorkerAction action) {
    synchronized (workerLock) {
      action.apply(current());
    }
    return Map.of();
  }

  private <T> T answer(WorkerQuery<T> query) {
    synchronized (workerLock) {
      return query.apply(current());
    }
  }

  private LocalWorker current() {
    if (worker == null) {
      throw new IllegalStateException(
          "no run in progress on this worker (never initialised, closed, or stopped after its lease of "
              + settings.leaseTimeout().toSeconds()
              + " s ran out)");
    }
    return worker;
  }

  private static <T> T read(byte[] body, Class<T> type) {
    try {
      return JSON.readValue(body, type);
    } catch (IOException e) {
      throw new BadInputException(
          "malformed request: " + e.getMessage().lines().findFirst().orElse(""));
    }
  }

  /** The body, or null when it is longer than {@code limit}. */
  private static byte[] readBounded(InputStream in, long limit) throws IOException {
    byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
    return body.length > limit ? null : body;
  }

  private static void respondJson(HttpExchange exchange, int status, Object body)
      throws IOException {
    respond(exchange, status, "application/json", JSON.writeValueAsBytes(body));
  }

  private static void respond(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    respond(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void respond(HttpExchange exchange, int status, String type, byte[] bytes)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static final class BusyException extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
