package io.plumb.cli;

import io.plumb.input.BadInputException;
import io.plumb.load.WorkerClock;
import io.plumb.remote.TlsContexts;
import io.plumb.remote.Tokens;
import io.plumb.remote.WorkerServer;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/benchmark-worker}: serves a coordinator's runs on this host. */
@Command(
    name = "benchmark-worker",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Generates load for a coordinator on another host: start it on each load-generating host, then run",
      "'bin/benchmark --workers http://HOST:PORT,... ' elsewhere. The coordinator sends the driver file, so this host",
      "needs only the built tree (with the driver modules) and network access to the broker.",
      "",
      "Every request must carry the shared token (from --token-file or the environment variable PLUMB_WORKER_TOKEN,",
      "the same on coordinator and workers); anything else gets 401. Listening beyond loopback without a token is",
      "refused unless --insecure. A run holds a lease the coordinator renews every second: if the coordinator goes",
      "silent for --lease-timeout, this worker stops its load and closes its clients on its own. Time this worker",
      "stood still (a long JVM pause, a frozen host) does not count: the renewals were waiting unread meanwhile.",
      "",
      "Live counters and rates: GET /metrics (Prometheus text format, same token as a bearer token).",
    },
    footer = {
      "",
      "Examples:",
      "  # one secret, copied to the coordinator and every worker",
      "  openssl rand -hex 32 > worker.token",
      "  bin/benchmark-worker --bind 0.0.0.0 --port 8080 --token-file worker.token",
      "",
      "  # no token: loopback only (--bind 127.0.0.1)",
      "  bin/benchmark-worker --port 8080",
      "",
      "  # TLS",
      "  bin/benchmark-worker --bind 0.0.0.0 --token-file worker.token \\",
      "      --tls-keystore worker.p12 --tls-keystore-password-file worker.pass",
      "",
      "  # live counters",
      "  curl -H \"Authorization: Bearer $(cat worker.token)\" \\",
      "      http://HOST:8080/metrics",
    })
public final class WorkerCommand implements Callable<Integer> {
  @Option(
      names = {"-p", "--port"},
      defaultValue = "8080",
      paramLabel = "PORT",
      description = "Port of the control API (default: ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(
      names = "--bind",
      defaultValue = "127.0.0.1",
      paramLabel = "ADDRESS",
      description =
          "Address to listen on (default: ${DEFAULT-VALUE}). Use 0.0.0.0 or the host's address for a coordinator elsewhere; that needs a token.")
  String bind;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "File holding the shared secret (default: the environment variable PLUMB_WORKER_TOKEN).")
  Path tokenFile;

  @Option(
      names = "--insecure",
      description =
          "Serve anyone who can reach the port, without a token, even beyond loopback. Only on a network you trust entirely.")
  boolean insecure;

  @Option(
      names = "--tls-keystore",
      paramLabel = "FILE",
      description = "Serve HTTPS with this keystore's key and certificate (PKCS12 or JKS).")
  Path tlsKeystore;

  @Option(
      names = "--tls-keystore-password-file",
      paramLabel = "FILE",
      description = "File holding the keystore's password.")
  Path tlsKeystorePasswordFile;

  @Option(
      names = "--lease-timeout",
      defaultValue = "15",
      paramLabel = "SECONDS",
      description =
          "Stop load when the coordinator has been silent this long (default: ${DEFAULT-VALUE}; 3 to 30).")
  int leaseTimeoutSeconds;

  @Option(
      names = "--max-request-mb",
      defaultValue = "64",
      paramLabel = "MB",
      description =
          "Largest request body accepted (default: ${DEFAULT-VALUE}); payload pools travel in the request that creates producers.")
  int maxRequestMegabytes;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Producer threads (default: one per core; 1 to " + MAX_THREADS + ").")
  Integer threads;

  /**
   * The most producer threads: one per hardware thread of the largest hosts built (two 192-core
   * sockets with SMT are 768, eight 60-core ones 960), or several per core of any smaller host for
   * a driver whose send() blocks. Each is a platform thread with its own 1 MiB event ring
   * (StatsCollector's loop ring), so a thousand are a gigabyte of rings; the load generator starts
   * no more than the worker has producers, but a figure beyond any host is a typo, not a plan.
   */
  private static final int MAX_THREADS = 1024;

  // A test's way to play a host whose clock is off; hidden because no user should need it.
  @Option(names = "--clock-skew-ms", hidden = true, defaultValue = "0")
  long clockSkewMillis;

  private final PrintStream out;
  private final CountDownLatch stopped = new CountDownLatch(1);

  public WorkerCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new BadInputException("--port: expected 0 (a free port) to 65535, got " + port);
    }
    if (leaseTimeoutSeconds < 3 || leaseTimeoutSeconds > 30) {
      throw new BadInputException(
          "--lease-timeout: expected 3 to 30 seconds, got " + leaseTimeoutSeconds);
    }
    if (maxRequestMegabytes < 1 || maxRequestMegabytes > 1024) {
      throw new BadInputException(
          "--max-request-mb: expected 1 to 1024, got " + maxRequestMegabytes);
    }
    if (threads != null && (threads < 1 || threads > MAX_THREADS)) {
      throw new BadInputException(
          "--threads: expected 1 to " + MAX_THREADS + " producer threads, got " + threads);
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new BadInputException("--bind: cannot resolve '" + bind + "'");
    }
    Optional<String> token = Tokens.read(tokenFile, "--token-file");
    if (token.isEmpty() && !address.isLoopbackAddress() && !insecure) {
      throw new BadInputException(
          "--bind "
              + bind
              + ": refusing to serve beyond loopback without a token; give --token-file FILE or set "
              + Tokens.ENV
              + " (or, on a network you trust entirely, --insecure)");
    }
    if ((tlsKeystorePasswordFile != null) && tlsKeystore == null) {
      throw new BadInputException("--tls-keystore-password-file: needs --tls-keystore");
    }
    SSLContext tls =
        tlsKeystore == null
            ? null
            : TlsContexts.server(tlsKeystore, tlsKeystorePasswordFile, "--tls-keystore");
    WorkerServer.Settings settings =
        new WorkerServer.Settings(
            new InetSocketAddress(address, port),
            token,
            tls,
            Duration.ofSeconds(leaseTimeoutSeconds),
            maxRequestMegabytes * 1024L * 1024L,
            threads == null ? Runtime.getRuntime().availableProcessors() : threads);
    WorkerServer server;
    try {
      server = new WorkerServer(settings, new WorkerClock(clockSkewMillis * 1_000_000L), out);
    } catch (java.net.BindException e) {
      throw new BadInputException(portRefusal(address, e));
    }
    server.start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "plumb-worker-stop"));
    out.printf(
        "Plumb worker listening on %s://%s:%d (%s, lease %d s)%n",
        tls == null ? "http" : "https",
        bind,
        server.port(),
        token.isPresent() ? "token required" : "NO TOKEN",
        leaseTimeoutSeconds);
    out.flush();
    stopped.await();
    return 0;
  }

  /**
   * One line: the port, what holds it where this host says, and a free port to choose instead. Port
   * 8080 is also the local Pulsar's admin port, so the likeliest holder is worth naming.
   */
  private String portRefusal(InetAddress address, java.net.BindException e) {
    StringBuilder line =
        new StringBuilder("--port " + port + ": cannot listen on " + bind + ":" + port + ": ");
    line.append(e.getMessage());
    PortHolder.describe(port)
        .ifPresent(
            holder -> {
              line.append(" by ").append(holder);
              PortHolder.known(holder)
                  .ifPresent(known -> line.append(" (").append(known).append(')'));
            });
    line.append("; choose another port with --port N");
    PortHolder.freeAfter(address, port)
        .ifPresent(free -> line.append(", e.g. --port ").append(free));
    return line.toString();
  }
}
