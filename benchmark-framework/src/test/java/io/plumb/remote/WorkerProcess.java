package io.plumb.remote;

import io.plumb.driver.DaemonThreads;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM of its own running {@code bin/benchmark-worker}'s main class (or the coordinator's) with
 * this module's test classpath, so tests can kill it like a crashed host.
 */
final class WorkerProcess implements AutoCloseable {
  static final String TOKEN = "test-token-0123456789abcdef";
  private static final Pattern LISTENING = Pattern.compile("listening on \\w+://[^:]+:(\\d+)");

  private final Process process;
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Integer> port = new CompletableFuture<>();

  private WorkerProcess(Process process) {
    this.process = process;
    DaemonThreads.start(
        "worker-output",
        () -> {
          try (BufferedReader in =
              new BufferedReader(
                  new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
              lines.add(line);
              Matcher matcher = LISTENING.matcher(line);
              if (matcher.find()) {
                port.complete(Integer.parseInt(matcher.group(1)));
              }
            }
          } catch (IOException e) {
            // the process ended
          }
          port.completeExceptionally(new IllegalStateException("ended: " + lines));
        });
  }

  /** Starts a worker on a free loopback port with the test token, and waits until it listens. */
  static WorkerProcess startWorker(String... extraArgs) throws Exception {
    List<String> args = new ArrayList<>(List.of("--port", "0", "--threads", "1"));
    args.addAll(List.of(extraArgs));
    WorkerProcess worker = start("io.plumb.cli.WorkerMain", args, true);
    worker.port.get(30, TimeUnit.SECONDS);
    return worker;
  }

  /**
   * Like {@link #startWorker}, with {@code jvmOptions} added to the JVM's command line and {@code
   * environment} to its environment (libfaketime's, say).
   */
  static WorkerProcess startWorker(
      List<String> jvmOptions, Map<String, String> environment, String... extraArgs)
      throws Exception {
    return launchWorker(jvmOptions, environment, extraArgs).awaitListening();
  }

  /**
   * Like {@link #startWorker(List, Map, String...)} without waiting for the worker to listen, so
   * several JVMs can start at once; {@link #awaitListening} then waits.
   */
  static WorkerProcess launchWorker(
      List<String> jvmOptions, Map<String, String> environment, String... extraArgs)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("--port", "0", "--threads", "1"));
    args.addAll(List.of(extraArgs));
    return start("io.plumb.cli.WorkerMain", args, true, jvmOptions, environment);
  }

  /** Waits until the worker listens, and returns it. */
  WorkerProcess awaitListening() throws Exception {
    // Longer than startWorker's: these JVMs start beside a busy build, under a preloaded library.
    port.get(120, TimeUnit.SECONDS);
    return this;
  }

  /** Starts a JVM running {@code mainClass}. */
  static WorkerProcess start(String mainClass, List<String> args, boolean withToken)
      throws IOException {
    return start(mainClass, args, withToken, List.of(), Map.of());
  }

  /**
   * Starts a JVM running {@code mainClass} with {@code jvmOptions} and {@code environment} added.
   */
  static WorkerProcess start(
      String mainClass,
      List<String> args,
      boolean withToken,
      List<String> jvmOptions,
      Map<String, String> environment)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove(Tokens.ENV);
    if (withToken) {
      builder.environment().put(Tokens.ENV, TOKEN);
    }
    builder.environment().putAll(environment);
    return new WorkerProcess(builder.start());
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + port.join() + "/");
  }

  HttpWorker client() {
    return new HttpWorker(uri(), java.util.Optional.of(TOKEN), null);
  }

  List<String> output() {
    return lines;
  }

  /** Waits (bounded) for an output line containing {@code text}. */
  void awaitOutput(String text, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (lines.stream().noneMatch(line -> line.contains(text))) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(
            "no line with '" + text + "' within " + seconds + " s: " + lines);
      }
      Thread.sleep(50);
    }
  }

  /** Like a crashed host: SIGKILL, no shutdown hooks. */
  void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  int waitFor(long seconds) throws Exception {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      throw new TimeoutException("still running after " + seconds + " s: " + lines);
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
  }
}
