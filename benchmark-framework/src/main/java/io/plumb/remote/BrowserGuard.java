package io.plumb.remote;

import com.sun.net.httpserver.Headers;
import java.net.InetSocketAddress;
import java.util.Locale;

/**
 * Keeps web pages out of the control API. A worker on the loopback without a token (the default)
 * trusts whoever can reach it, and a page open in a browser on its host can: a cross-site POST of
 * text needs no permission, and DNS rebinding lets the page read the answers. Browsers name the
 * page in {@code Origin} on every POST, and after rebinding send the page's host name in {@code
 * Host}; the coordinator's client does neither.
 */
final class BrowserGuard {
  private BrowserGuard() {}

  /** Why the request is refused, or null when it may go on. */
  static String refusal(Headers headers, InetSocketAddress bind) {
    if (headers.containsKey("Origin")) {
      return "sent by a web page (Origin " + headers.getFirst("Origin") + ")";
    }
    if (bind.getAddress() != null && bind.getAddress().isLoopbackAddress()) {
      String host = hostName(headers.getFirst("Host"));
      if (!isLoopbackName(host)) {
        return "addressed to " + host + ", not to this loopback worker";
      }
    }
    return null;
  }

  /** The host part of a Host header: "127.0.0.1:8080" to "127.0.0.1", "[::1]:8080" to "::1". */
  static String hostName(String header) {
    if (header == null) {
      return "";
    }
    String host = header.trim().toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? host : host.substring(1, end);
    }
    int colon = host.lastIndexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }

  private static boolean isLoopbackName(String host) {
    return host.equals("localhost") || host.equals("::1") || host.matches("127(\\.\\d{1,3}){3}");
  }
}
