package io.plumb.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.input.BadInputException;
import io.plumb.worker.WorkerException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Reads a worker's clock over a connection of its own, kept open, on the calling thread: one
 * request written, one answer read, nothing in between. The JDK's HttpClient, which every other
 * call uses, hands each request and answer between its own threads, and on a 2-core virtual machine
 * that took a round trip to /clock from about 0.13 ms (this way) to 1 to 3 ms at best, widening
 * every clock offset's uncertainty to match.
 *
 * <p>Used by one thread at a time (the one opening the session, then the clock watch's); {@link
 * #close} may come from any thread and ends a read under way.
 */
final class ClockProbe implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PATH = "/clock";

  private final URI base;
  private final SSLContext tls;
  private final Duration timeout;
  private final byte[] request;
  private volatile Socket socket;
  private InputStream in;
  private OutputStream out;
  private volatile boolean closed;

  ClockProbe(URI base, Optional<String> token, SSLContext tls, Duration timeout) {
    this.base = base;
    this.tls = tls;
    this.timeout = timeout;
    StringBuilder text =
        new StringBuilder("POST " + PATH + " HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\n");
    token.ifPresent(value -> text.append("Authorization: Bearer ").append(value).append("\r\n"));
    text.append("Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    this.request = text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * The worker's clock, epoch nanoseconds. A connection the worker closed while idle is opened
   * again once; any failure closes it, so no half-read answer is ever taken for the next one.
   */
  long clock() {
    try {
      try {
        return exchange();
      } catch (SocketTimeoutException late) {
        throw late;
      } catch (IOException stale) {
        // The worker closes a connection left idle a while (a long setup, say): open it anew.
        disconnect();
        if (closed) {
          throw stale;
        }
        return exchange();
      }
    } catch (SocketTimeoutException e) {
      disconnect();
      throw new WorkerException(
          "worker " + base + " did not answer " + PATH + " within " + timeout.toSeconds() + " s",
          e);
    } catch (IOException e) {
      disconnect();
      throw new WorkerException(
          "worker " + base + " cannot be reached: " + HttpWorker.describe(e), e);
    } catch (RuntimeException e) {
      disconnect();
      throw e;
    }
  }

  private long exchange() throws IOException {
    if (socket == null) {
      connect();
    }
    out.write(request);
    out.flush();
    String status = line();
    int contentLength = 0;
    for (String header = line(); !header.isEmpty(); header = line()) {
      if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        contentLength = Integer.parseInt(header.substring("content-length:".length()).trim());
      }
    }
    byte[] body = in.readNBytes(contentLength);
    if (body.length < contentLength) {
      throw new IOException("connection closed inside an answer");
    }
    int code = statusCode(status);
    if (code == 401) {
      throw new BadInputException(
          "worker "
              + base
              + " refused the token (401): give the worker's token with --token-file or "
              + Tokens.ENV);
    }
    if (code != 200) {
      throw new WorkerException("worker " + base + PATH + ": " + status);
    }
    return JSON.readValue(body, WireMessages.Clock.class).nanos();
  }

  /** From "HTTP/1.1 200 OK"; -1 for anything that is not a status line. */
  private static int statusCode(String status) {
    String[] parts = status.split(" ", 3);
    try {
      return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private void connect() throws IOException {
    int port = base.getPort() > 0 ? base.getPort() : tls == null ? 80 : 443;
    Socket plain = new Socket();
    try {
      plain.setTcpNoDelay(true);
      plain.connect(
          new InetSocketAddress(base.getHost(), port), (int) HttpWorker.CONNECT_TIMEOUT.toMillis());
      plain.setSoTimeout((int) timeout.toMillis());
      Socket open = plain;
      if (tls != null) {
        SSLSocket secure =
            (SSLSocket) tls.getSocketFactory().createSocket(plain, base.getHost(), port, true);
        // As the HttpClient checks: the certificate must name the host the URL names.
        SSLParameters parameters = secure.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        secure.setSSLParameters(parameters);
        secure.startHandshake();
        open = secure;
      }
      in = new BufferedInputStream(open.getInputStream());
      out = open.getOutputStream();
      socket = open;
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
    if (closed) {
      disconnect();
      throw new IOException("closed");
    }
  }

  /** One header line, without its CR LF. */
  private String line() throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new IOException("connection closed inside an answer");
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  private void disconnect() {
    Socket open = socket;
    socket = null;
    if (open != null) {
      try {
        open.close();
      } catch (IOException e) {
        // closing: nothing left to read from it either way
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    disconnect();
  }
}
