package io.plumb.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AdminHttpTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final HttpClient http = HttpClient.newHttpClient();
  private HttpServer server;
  private URI base;

  @BeforeEach
  void serve() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/varz",
        exchange -> {
          byte[] body = "{\"server_name\":\"n1\"}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void anAnswerWith200IsItsBody() throws Exception {
    assertEquals("{\"server_name\":\"n1\"}", AdminHttp.get(http, base.resolve("/varz"), TIMEOUT));
  }

  @Test
  void anotherStatusFailsNamingTheUrlAndTheStatus() {
    URI missing = base.resolve("/nothing-here");
    IOException e = assertThrows(IOException.class, () -> AdminHttp.get(http, missing, TIMEOUT));
    assertEquals(missing + ": HTTP 404", e.getMessage());
  }

  @Test
  void everyEndpointIsAskedInOrderAndTheFirstWithoutAnAnswerIsNamed() throws Exception {
    URI other = URI.create("http://localhost:" + server.getAddress().getPort());
    assertEquals(
        List.of(base + " {\"server_name\":\"n1\"}", other + " {\"server_name\":\"n1\"}"),
        AdminHttp.getEach(
            List.of(base, other), "/varz", TIMEOUT, (body, endpoint) -> endpoint + " " + body));

    IOException e =
        assertThrows(
            IOException.class,
            () -> AdminHttp.getEach(List.of(base, other), "/nothing-here", TIMEOUT, (b, u) -> b));
    assertEquals(base + "/nothing-here: HTTP 404", e.getMessage());
  }

  @Test
  void aReadersRefusalOfAnAnswerEndsTheReadings() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                AdminHttp.getEach(
                    List.of(base),
                    "/varz",
                    TIMEOUT,
                    (body, endpoint) -> {
                      throw new IOException(endpoint + "/varz: not a server's answer");
                    }));
    assertEquals(base + "/varz: not a server's answer", e.getMessage());
  }

  @Test
  void anEndpointNobodyListensOnFailsNamingTheUrlAndWhy() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    URI nobody = URI.create("http://127.0.0.1:" + closed + "/varz");
    IOException e = assertThrows(IOException.class, () -> AdminHttp.get(http, nobody, TIMEOUT));
    assertTrue(e.getMessage().startsWith(nobody + ": "), e.getMessage());
    String why = e.getMessage().substring((nobody + ": ").length());
    assertFalse(why.isBlank(), e.getMessage());
  }
}
