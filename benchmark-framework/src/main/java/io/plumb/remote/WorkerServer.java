package io.plumb.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.plumb.driver.DaemonThreads;
import io.plumb.input.BadInputException;
import io.plumb.input.UnreachableBrokerException;
import io.plumb.load.WorkerClock;
import io.plumb.resources.ResourceSource;
import io.plumb.resources.SnapshotReader;
import io.plumb.worker.LocalWorker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
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
 *
 * <p>This class checks each request's token and watches the coordinator's lease; {@link
 * WorkerRoutes} says which handler answers a path, and {@link HostedRun} holds the run it serves.
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

  private static final ObjectMapper JSON = WireJson.MAPPER;

  private final Settings settings;
  private final PrintStream log;
  private final HttpServer server;
  // A thread per connection being served: the JDK's server reads a request's headers on this
  // executor, before the token can be checked, so a fixed few threads were all held by anyone who
  // opened that many connections and sent half a request, and the coordinator was shut out.
  private final ExecutorService requests =
      Executors.newCachedThreadPool(DaemonThreads.named("plumb-http"));
  private final ScheduledExecutorService watchdog =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("plumb-lease"));
  private final Lease lease;
  private final WorkerMetrics metrics = new WorkerMetrics();
  private final ResourceSource resources = SnapshotReader.open(List.of());
  private final HostedRun run;
  private final WorkerRoutes routes;

  static {
    // The JDK's HTTP server leaves Nagle's algorithm on, so each small answer waited for the
    // client's delayed acknowledgement: about 48 ms a call on loopback, which slowed every control
    // call and left clock offsets off by about 21 ms (± 22 ms). Read once, before the first server.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  public WorkerServer(Settings settings, WorkerClock clock, PrintStream log) throws IOException {
    this.settings = settings;
    this.log = log;
    this.lease = new Lease(settings.leaseTimeout());
    this.run = new HostedRun(settings, clock, lease, log);
    this.routes = new WorkerRoutes(clock, settings.leaseTimeout(), resources, metrics, run);
    if (settings.tls() != null) {
      HttpsServer https = HttpsServer.create(settings.bind(), 0);
      https.setHttpsConfigurator(new HttpsConfigurator(settings.tls()));
      server = https;
    } else {
      server = HttpServer.create(settings.bind(), 0);
    }
    server.setExecutor(requests);
    server.createContext("/", this::serve);
  }

  public void start() {
    server.start();
    long every = Lease.CHECK_EVERY.toMillis();
    watchdog.scheduleWithFixedDelay(this::checkLease, every, every, TimeUnit.MILLISECONDS);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    watchdog.shutdownNow();
    requests.shutdownNow();
    run.end();
    resources.close();
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      String browser = BrowserGuard.refusal(exchange.getRequestHeaders(), settings.bind());
      if (browser != null) {
        // As bare as a missing token's 401.
        metrics.unauthorized();
        exchange.sendResponseHeaders(403, -1);
        return;
      }
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
      WorkerRoutes.Call call = routes.find(path);
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
      String from = exchange.getRequestHeaders().getFirst(HttpWorker.COORDINATOR_HEADER);
      from = from == null ? "" : from;
      run.heardFrom(from);
      Object result;
      try {
        result = call.handle(body, from);
      } catch (HostedRun.BusyException e) {
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
    boolean expired = lease.expire();
    Duration stall = lease.takeStall();
    if (!stall.isZero()) {
      log.printf(
          "this worker stood still for %.1f s (a pause of its JVM or its host); the lease does not"
              + " count it against the coordinator%n",
          stall.toNanos() / 1e9);
    }
    if (!expired) {
      return;
    }
    metrics.leaseExpired();
    log.println(
        "lease expired: no word from the coordinator for "
            + settings.leaseTimeout().toSeconds()
            + " s; stopping load and closing clients");
    run.end();
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
}
