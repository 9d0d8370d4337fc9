package io.plumb.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/benchmark} run in-process, as a user would run it, with what it printed and its exit
 * status: what drivers' tests use to check the command's own words (an unreachable broker, say).
 */
public record CommandLineRun(int status, String out, String err) {

  /**
   * Runs a 2-second, 100 msg/s workload with {@code driverFile}, writing results to {@code dir};
   * each of {@code driverSettings} is given as {@code --driver-set}.
   */
  public static CommandLineRun tinyRun(Path dir, String driverFile, String... driverSettings) {
    Path workload = writeTinyWorkload(dir);
    List<String> args = new ArrayList<>(List.of("-d", driverFile, "-o", dir.toString()));
    for (String setting : driverSettings) {
      args.add("--driver-set");
      args.add(setting);
    }
    args.add(workload.toString());
    return run(args.toArray(new String[0]));
  }

  /** Writes {@code tiny.yaml} into {@code dir}: 2 seconds of 100 msg/s of 100 bytes. */
  public static Path writeTinyWorkload(Path dir) {
    try {
      return Files.writeString(
          dir.resolve("tiny.yaml"),
          """
          name: tiny
          topics: 1
          partitionsPerTopic: 1
          messageSize: 100
          subscriptionsPerTopic: 1
          consumerPerSubscription: 1
          producersPerTopic: 1
          producerRate: 100
          testDurationSeconds: 2
          warmupDurationSeconds: 0
          """);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code <file>} into {@code dir}: a driver file naming {@code name} and its class. */
  public static Path writeDriverFile(Path dir, String file, String name, Class<?> driverClass) {
    try {
      return Files.writeString(
          dir.resolve(file), "name: " + name + "\ndriverClass: " + driverClass.getName() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code workload} with {@code driverFile}, writing results to {@code dir}. */
  public static CommandLineRun run(Path driverFile, Path dir, Path workload) {
    return run("-d", driverFile.toString(), "-o", dir.toString(), workload.toString());
  }

  /** Runs {@code bin/benchmark} with {@code args}. */
  public static CommandLineRun run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Main.run(args, outStream, errStream);
    }
    return new CommandLineRun(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * A loopback port nothing listens on (free when asked; nobody else here takes ports at random).
   */
  public static int unusedPort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What is wrong with this run as the end of a run whose broker did not answer: empty when it
   * exited with status 3 after one line naming {@code driverFile}, {@code address} and {@code
   * startCommand}, and printed no result.
   */
  public List<String> unreachableBrokerProblems(
      String driverFile, String address, String startCommand) {
    List<String> problems = new ArrayList<>();
    if (status != 3) {
      problems.add("exit status " + status + ", not 3");
    }
    List<String> lines = errorLines();
    if (lines.size() != 1) {
      problems.add(lines.size() + " lines on standard error, not 1: " + err);
    } else {
      String line = lines.get(0);
      for (String expected :
          List.of(
              "error: " + driverFile + ": ", address, "start the local one with " + startCommand)) {
        if (!line.contains(expected)) {
          problems.add("the line does not name '" + expected + "': " + line);
        }
      }
    }
    if (out.contains("Latency") || out.contains("Result ")) {
      problems.add("a result was printed: " + out);
    }
    return problems;
  }

  /** The lines printed to standard error. */
  public List<String> errorLines() {
    return err.lines().toList();
  }
}
