package io.plumb.remote;

import io.plumb.load.WorkerClock;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Worker servers for tests: on the loopback address at a free port, without TLS, with the usual
 * request limit and one producer thread, their log thrown away. Not started.
 */
public final class LoopbackWorkerServers {
  private LoopbackWorkerServers() {}

  public static WorkerServer create(Optional<String> token, Duration leaseTimeout)
      throws IOException {
    return create(token, leaseTimeout, new WorkerClock());
  }

  public static WorkerServer create(
      Optional<String> token, Duration leaseTimeout, WorkerClock clock) throws IOException {
    return new WorkerServer(
        new WorkerServer.Settings(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            token,
            null,
            leaseTimeout,
            1 << 20,
            1),
        clock,
        new PrintStream(OutputStream.nullOutputStream(), true));
  }

  /** A client of {@code server}, on the loopback address, sending {@code token}. */
  public static HttpWorker client(WorkerServer server, Optional<String> token) {
    return new HttpWorker(URI.create("http://127.0.0.1:" + server.port() + "/"), token, null);
  }
}
