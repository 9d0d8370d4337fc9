package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WorkerMainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) throws Exception {
    // Bounded: a worker that wrongly started would serve forever.
    return CompletableFuture.supplyAsync(
            () ->
                WorkerMain.run(
                    args,
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8)))
        .get(30, TimeUnit.SECONDS);
  }

  @Test
  void refusesToListenBeyondLoopbackWithoutAToken() throws Exception {
    assertEquals(2, run("--bind", "0.0.0.0", "--port", "0"));
    assertEquals(
        "error: --bind 0.0.0.0: refusing to serve beyond loopback without a token; give --token-file FILE or set PLUMB_WORKER_TOKEN (or, on a network you trust entirely, --insecure)\n",
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aTakenPortIsRefusedNamingItsHolderAndAFreePort() throws Exception {
    try (ServerSocket holder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = holder.getLocalPort();
      assertEquals(2, run("--port", String.valueOf(port)));
      String line = err.toString(StandardCharsets.UTF_8);
      long self = ProcessHandle.current().pid();
      Matcher refusal =
          Pattern.compile(
                  "error: --port "
                      + port
                      + ": cannot listen on 127\\.0\\.0\\.1:"
                      + port
                      + ": Address already in use by pid "
                      + self
                      + ", java [^;]+; choose another port with --port N, e\\.g\\. --port (\\d+)\n")
              .matcher(line);
      assertTrue(refusal.matches(), line);
      int offered = Integer.parseInt(refusal.group(1));
      try (ServerSocket free = new ServerSocket(offered, 1, InetAddress.getLoopbackAddress())) {
        assertEquals(offered, free.getLocalPort());
      }
    }
  }

  @Test
  void helpTeachesTheTokenAndTheLease() throws Exception {
    assertEquals(0, run("--help"));
    String help = out.toString(StandardCharsets.UTF_8);
    assertTrue(help.contains("--token-file"), help);
    assertTrue(help.contains("--lease-timeout"), help);
    assertTrue(help.contains("bin/benchmark --workers"), help);
    assertTrue(!help.contains("clock-skew"), "the test-only option stays hidden");
  }

  /** Each command line and the one line it is refused with. */
  static Stream<Arguments> refusedOptions() {
    return Stream.of(
        Arguments.of(
            List.of("--port", "70000"),
            "error: --port: expected 0 (a free port) to 65535, got 70000"),
        Arguments.of(
            List.of("--port", "0", "--tls-keystore", "no-such-worker.p12"),
            "error: --tls-keystore: no-such-worker.p12: file not found"),
        Arguments.of(
            List.of("--port", "0", "--threads", "1025"),
            "error: --threads: expected 1 to 1024 producer threads, got 1025"));
  }

  @ParameterizedTest
  @MethodSource("refusedOptions")
  void aBadOptionIsRefusedInOneLine(List<String> args, String refusal) throws Exception {
    assertEquals(2, run(args.toArray(String[]::new)));
    assertEquals(refusal + "\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void rejectsALeaseBeyondThirtySeconds() throws Exception {
    assertEquals(2, run("--lease-timeout", "60"));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("error: --lease-timeout:"));
  }
}
