package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.DriverFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bookies' journalSyncData read back from their HTTP servers, on answers shaped as BookKeeper
 * 4.17 gives them ({@code /api/v1/config/server_config}: a flat JSON object of every configuration
 * key as text, only the keys the bookie's file or code set), and the driver file's fields {@code
 * bookieHttpUrls} and {@code expectJournalSync}; without a bookie.
 */
class BookieJournalSyncTest {
  private static final URI ENDPOINT = URI.create("http://127.0.0.1:8001");
  private static final List<String> CLUSTER =
      List.of("127.0.0.1:3181", "127.0.0.1:3182", "127.0.0.1:3183");

  @TempDir Path dir;

  private static String serverConfig(int port, String journalSyncData) {
    return "{\"bookiePort\":\""
        + port
        + "\",\"advertisedAddress\":\"127.0.0.1\",\"httpServerEnabled\":\"true\""
        + (journalSyncData == null ? "" : ",\"journalSyncData\":\"" + journalSyncData + "\"")
        + "}";
  }

  private static BookieJournalSync.Reading reading(int port, boolean sync) {
    return new BookieJournalSync.Reading("127.0.0.1:" + port, sync, ENDPOINT);
  }

  @Test
  void theAnswerNamesItsBookieAndItsSetting() throws Exception {
    assertEquals(
        new BookieJournalSync.Reading("127.0.0.1:3182", false, ENDPOINT),
        BookieJournalSync.reading(serverConfig(3182, "false"), ENDPOINT));
    assertTrue(BookieJournalSync.reading(serverConfig(3181, "true"), ENDPOINT).journalSyncData());
  }

  /** BookKeeper's default, when the bookie's file does not set it, is to fsync. */
  @Test
  void anUnsetJournalSyncDataIsBookKeepersDefaultTrue() throws Exception {
    assertTrue(BookieJournalSync.reading(serverConfig(3181, null), ENDPOINT).journalSyncData());
  }

  @Test
  void anAnswerThatIsNoBookieConfigurationFails() {
    IOException notJson =
        assertThrows(IOException.class, () -> BookieJournalSync.reading("<html>", ENDPOINT));
    assertTrue(
        notJson.getMessage().startsWith(ENDPOINT + "/api/v1/config/server_config: not JSON"));
    IOException odd =
        assertThrows(
            IOException.class,
            () -> BookieJournalSync.reading(serverConfig(3181, "sometimes"), ENDPOINT));
    assertTrue(odd.getMessage().endsWith("journalSyncData is 'sometimes', neither true nor false"));
  }

  @Test
  void bookiesThatAgreeAreOneValueAndOthersAreNamedEach() {
    assertEquals(
        "true",
        BookieJournalSync.describe(
            List.of(reading(3181, true), reading(3182, true), reading(3183, true)), CLUSTER));
    assertEquals(
        "127.0.0.1:3181 true, 127.0.0.1:3182 false, 127.0.0.1:3183 true (the bookies disagree)",
        BookieJournalSync.describe(
            List.of(reading(3181, true), reading(3182, false), reading(3183, true)), CLUSTER));
  }

  /** A registered bookie nobody asked is no agreement, whatever the others say. */
  @Test
  void aRegisteredBookieThatWasNotReadIsSaid() {
    List<BookieJournalSync.Reading> two = List.of(reading(3181, false), reading(3182, false));
    assertEquals(
        "127.0.0.1:3181 false, 127.0.0.1:3182 false, 127.0.0.1:3183 not read (not every registered"
            + " bookie answered (client.bookieHttpUrls lists where to ask))",
        BookieJournalSync.describe(two, CLUSTER));
    assertFalse(BookieJournalSync.allAre(two, CLUSTER, false));
    List<BookieJournalSync.Reading> all =
        List.of(reading(3181, false), reading(3182, false), reading(3183, false));
    assertTrue(BookieJournalSync.allAre(all, CLUSTER, false));
    assertFalse(BookieJournalSync.allAre(all, CLUSTER, true));
  }

  /** Each answer is matched to its bookie by what the bookie says, not by the URL's order. */
  @Test
  void readsEveryEndpointOverHttp() throws Exception {
    HttpServer first = bookie(serverConfig(3182, "false"));
    HttpServer second = bookie(serverConfig(3181, "false"));
    try {
      List<BookieJournalSync.Reading> readings =
          BookieJournalSync.read(List.of(uri(first), uri(second)));
      assertEquals(List.of("127.0.0.1:3182", "127.0.0.1:3181"), bookies(readings));
      assertEquals(
          "false",
          BookieJournalSync.describe(readings, List.of("127.0.0.1:3181", "127.0.0.1:3182")));
    } finally {
      first.stop(0);
      second.stop(0);
    }
  }

  @Test
  void anEndpointThatDoesNotAnswerIsNamed() throws Exception {
    HttpServer gone = bookie(serverConfig(3181, "true"));
    URI endpoint = uri(gone);
    gone.stop(0);
    IOException e =
        assertThrows(IOException.class, () -> BookieJournalSync.read(List.of(endpoint)));
    assertTrue(
        e.getMessage().startsWith(endpoint + "/api/v1/config/server_config: "), e.getMessage());
  }

  @Test
  void theFileNamesEndpointsAndAnExpectation() throws Exception {
    PulsarClientSettings none = read("client:\n  topicType: persistent\n").client();
    assertEquals(List.of(), none.bookieEndpoints());
    assertNull(none.expectJournalSync());
    PulsarClientSettings both =
        read("client:\n  bookieHttpUrls: http://127.0.0.1:8001, http://127.0.0.1:8002\n"
                + "  expectJournalSync: false\n")
            .client();
    assertEquals(
        List.of(URI.create("http://127.0.0.1:8001"), URI.create("http://127.0.0.1:8002")),
        both.bookieEndpoints());
    assertEquals(Boolean.FALSE, both.expectJournalSync());
  }

  @Test
  void badValuesAreRefusedWithFileLineAndField() {
    Path file = dir.resolve("sync.yaml");
    assertEquals(
        file
            + ":2: field 'client.bookieHttpUrls': '127.0.0.1:8001' is no http://host:port of a"
            + " bookie's HTTP server",
        refusal("client:\n  bookieHttpUrls: 127.0.0.1:8001\n"));
    assertEquals(
        file
            + ":2: field 'client.expectJournalSync': needs client.bookieHttpUrls, the bookies' HTTP"
            + " servers where journalSyncData is read back (deploy/local/pulsar.sh's:"
            + " http://127.0.0.1:8001,http://127.0.0.1:8002,http://127.0.0.1:8003)",
        refusal("client:\n  expectJournalSync: true\n"));
    assertEquals(
        file
            + ":3: field 'client.expectJournalSync': non-persistent topics are not stored, so there"
            + " is no journal sync to expect",
        refusal(
            "client:\n  topicType: non-persistent\n  expectJournalSync: true\n"
                + "  bookieHttpUrls: http://127.0.0.1:8001\n"));
    assertTrue(
        refusal("client:\n  expectJournalSync: sometimes\n")
            .startsWith(file + ":2: field 'client.expectJournalSync': expected true or false"));
  }

  private PulsarConfig read(String yaml) throws Exception {
    Path file = Files.writeString(dir.resolve("sync.yaml"), yaml);
    return DriverFiles.settings(file, Map.of(), f -> PulsarConfig.read(f, Map.of()));
  }

  private String refusal(String yaml) {
    return assertThrows(DriverConfigException.class, () -> read(yaml)).getMessage();
  }

  /** A stand-in for a bookie's HTTP server: its server_config answer, and 404 elsewhere. */
  private static HttpServer bookie(String answer) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          boolean config =
              exchange.getRequestURI().getPath().equals("/api/v1/config/server_config");
          byte[] body = (config ? answer : "not found").getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(config ? 200 : 404, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    return server;
  }

  private static URI uri(HttpServer server) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private static List<String> bookies(List<BookieJournalSync.Reading> readings) {
    return readings.stream().map(BookieJournalSync.Reading::bookie).toList();
  }
}
