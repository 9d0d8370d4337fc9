package io.plumb.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which process of this host listens on a TCP port, read from Linux's /proc: a worker that cannot
 * take its port says by what, so a user who started the local Pulsar (whose admin service has the
 * same default port, 8080) or another worker sees at once what to move. Only processes this user
 * may inspect are found; elsewhere the answer is empty and the refusal says less.
 */
final class PortHolder {
  /** TCP state LISTEN in /proc/net/tcp's "st" column. */
  private static final String LISTEN = "0A";

  /** The java launcher's options whose value is the next argument, not the main class. */
  private static final Set<String> JVM_OPTIONS_WITH_VALUE =
      Set.of(
          "-cp",
          "-classpath",
          "--class-path",
          "-p",
          "--module-path",
          "--upgrade-module-path",
          "--add-modules",
          "--add-opens",
          "--add-exports",
          "--add-reads",
          "--patch-module",
          "--limit-modules",
          "--enable-native-access");

  private PortHolder() {}

  /** "pid 1234, java org.apache.pulsar.PulsarStandaloneStarter", or empty when unknown. */
  static Optional<String> describe(int port) {
    try {
      Optional<String> inode = listeningInode(port);
      if (inode.isEmpty()) {
        return Optional.empty();
      }
      return owner("socket:[" + inode.get() + "]").map(pid -> "pid " + pid + ", " + command(pid));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** What to do about a holder Plumb knows, e.g. "the local Pulsar's admin service". */
  static Optional<String> known(String holder) {
    if (holder.contains("io.plumb.cli.WorkerMain")) {
      return Optional.of("another Plumb worker");
    }
    if (holder.contains("org.apache.pulsar.")) {
      return Optional.of("Pulsar's web service and admin API, deploy/local/pulsar.sh");
    }
    return Optional.empty();
  }

  /** The first port above {@code taken} that {@code address} can listen on, if one is near. */
  static Optional<Integer> freeAfter(InetAddress address, int taken) {
    for (int port = taken + 10; port < Math.min(taken + 110, 65_536); port++) {
      try (ServerSocket socket = new ServerSocket(port, 1, address)) {
        return Optional.of(port);
      } catch (IOException e) {
        // taken too: try the next
      }
    }
    return Optional.empty();
  }

  private static Optional<String> listeningInode(int port) throws IOException {
    String hexPort = String.format(":%04X", port);
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path path = Path.of(table);
      if (!Files.isReadable(path)) {
        continue;
      }
      for (String line : Files.readAllLines(path)) {
        String[] columns = line.trim().split("\\s+");
        if (columns.length > 9 && columns[1].endsWith(hexPort) && columns[3].equals(LISTEN)) {
          return Optional.of(columns[9]);
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<Long> owner(String socketLink) throws IOException {
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      for (Path process : (Iterable<Path>) processes::iterator) {
        String name = process.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit) && holds(process, socketLink)) {
          return Optional.of(Long.parseLong(name));
        }
      }
    }
    return Optional.empty();
  }

  private static boolean holds(Path process, String socketLink) {
    try (Stream<Path> fds = Files.list(process.resolve("fd"))) {
      return fds.anyMatch(fd -> socketLink.equals(readLink(fd)));
    } catch (IOException | RuntimeException e) {
      return false; // another user's process, or gone
    }
  }

  private static String readLink(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * The program and, for a JVM, its main class or jar: a JVM's command line is mostly classpath.
   */
  private static String command(long pid) {
    List<String> args = new ArrayList<>();
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline"));
      for (String arg : new String(raw, StandardCharsets.UTF_8).split("\0")) {
        args.add(arg);
      }
    } catch (IOException e) {
      return "unknown program";
    }
    return program(args);
  }

  /** "java MAIN", "java -jar JAR" or the program's name, from a command line split into args. */
  static String program(List<String> args) {
    String program = Path.of(args.get(0)).getFileName().toString();
    if (!program.equals("java")) {
      return program;
    }
    for (int i = 1; i < args.size(); i++) {
      String arg = args.get(i);
      if (JVM_OPTIONS_WITH_VALUE.contains(arg)) {
        i++;
      } else if (arg.equals("-jar") && i + 1 < args.size()) {
        return "java -jar " + args.get(i + 1);
      } else if (!arg.startsWith("-")) {
        return "java " + arg;
      }
    }
    return "java";
  }
}
