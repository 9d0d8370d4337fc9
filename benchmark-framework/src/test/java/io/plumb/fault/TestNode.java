package io.plumb.fault;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in cluster node for the fault tests: a real process listening on 127.0.0.1. It answers
 * "ping" with "pong", and "probe PORT" with whether it can itself reach a node on PORT, so a test
 * can see which connections a network cut blocks, in both directions.
 */
public final class TestNode {
  private TestNode() {}

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(args[0]);
    try (ServerSocket server = new ServerSocket()) {
      server.setReuseAddress(true);
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      while (true) {
        Socket client = server.accept();
        // Only this class's directory is on the node's class path: no driver-api DaemonThreads.
        Thread thread = new Thread(() -> serve(client), "plumb-test-node-" + port + "-client");
        thread.setDaemon(true);
        thread.start();
      }
    }
  }

  private static void serve(Socket client) {
    try (client;
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.equals("ping")) {
          out.println("pong");
        } else if (line.startsWith("probe ")) {
          out.println(
              ping(Integer.parseInt(line.substring(6).trim())) ? "reachable" : "unreachable");
        }
      }
    } catch (IOException e) {
      // the test closed the connection, or a cut dropped it
    }
  }

  /** Whether a node on {@code port} answers a ping within a second. */
  static boolean ping(int port) {
    try {
      return "pong".equals(ask(port, "ping", 1000));
    } catch (IOException e) {
      return false;
    }
  }

  /** Asks the node on {@code port} whether it reaches the node on {@code target}. */
  static String probe(int port, int target) {
    try {
      return ask(port, "probe " + target, 3000);
    } catch (IOException e) {
      return "no answer: " + e.getMessage();
    }
  }

  /** Sends one request line to the node on {@code port} and reads its one-line answer. */
  private static String ask(int port, String request, int answerTimeoutMillis) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      socket.setSoTimeout(answerTimeoutMillis);
      PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      out.println(request);
      return in.readLine();
    }
  }
}
