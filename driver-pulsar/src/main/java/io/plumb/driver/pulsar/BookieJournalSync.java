package io.plumb.driver.pulsar;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.driver.AdminHttp;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The bookies' {@code journalSyncData} as each running bookie reports it: whether it fsyncs its
 * journal before acknowledging a write, or acknowledges once the write is in the page cache, which
 * a power loss takes. Neither the client protocol nor the broker's admin API carries a bookie's
 * configuration, so the driver asks each bookie's own HTTP server ({@code GET
 * /api/v1/config/server_config}: the configuration object the running bookie holds, every key as
 * text). The answer names the bookie it came from ({@code advertisedAddress} and {@code
 * bookiePort}), so a reading is matched to a bookie registered with the cluster by what the bookie
 * says, not by the URL the driver file lists.
 */
final class BookieJournalSync {
  /** The broker fact: one value when every registered bookie reports the same, else each one's. */
  static final String FACT = "pulsar.bookies.journalSyncData";

  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final String PATH = "/api/v1/config/server_config";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One bookie's answer.
   *
   * @param bookie its id as BookKeeper registers it ({@code 127.0.0.1:3181})
   * @param journalSyncData the setting it runs with
   * @param endpoint the HTTP server that answered
   */
  record Reading(String bookie, boolean journalSyncData, URI endpoint) {}

  private BookieJournalSync() {}

  /** Every endpoint's answer, in order; fails naming the first that gave none. */
  static List<Reading> read(List<URI> endpoints) throws IOException, InterruptedException {
    return AdminHttp.getEach(endpoints, PATH, TIMEOUT, BookieJournalSync::reading);
  }

  /**
   * The setting in one server_config answer. A file that does not set {@code journalSyncData}
   * leaves BookKeeper's default, true ({@code ServerConfiguration.getJournalSyncData}); a bookie
   * that does not say its address is named by the endpoint's host.
   */
  static Reading reading(String body, URI endpoint) throws IOException {
    JsonNode config;
    try {
      config = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IOException(endpoint.resolve(PATH) + ": not JSON (" + e.getOriginalMessage() + ")");
    }
    if (config == null || !config.isObject()) {
      throw new IOException(endpoint.resolve(PATH) + ": not a bookie's configuration");
    }
    String sync = config.path("journalSyncData").asText("true").trim();
    if (!sync.equalsIgnoreCase("true") && !sync.equalsIgnoreCase("false")) {
      throw new IOException(
          endpoint.resolve(PATH) + ": journalSyncData is '" + sync + "', neither true nor false");
    }
    String host = config.path("advertisedAddress").asText("");
    String port = config.path("bookiePort").asText("3181");
    String bookie = (host.isBlank() ? endpoint.getHost() : host) + ":" + port;
    return new Reading(bookie, Boolean.parseBoolean(sync), endpoint);
  }

  /**
   * The fact: {@code true} or {@code false} when every bookie registered with the cluster answered
   * and they agree; otherwise each bookie's value, or that it was not read, in the order the
   * cluster lists them, with a note saying which: {@code 127.0.0.1:3181 true, 127.0.0.1:3182 false
   * (the bookies disagree)}. An answer from a bookie the cluster does not list is named as such.
   */
  static String describe(List<Reading> readings, List<String> registered) {
    Map<String, Reading> byBookie = new LinkedHashMap<>();
    for (Reading reading : readings) {
      byBookie.putIfAbsent(reading.bookie(), reading);
    }
    boolean allRead = registered.stream().allMatch(byBookie::containsKey);
    boolean unregistered = byBookie.keySet().stream().anyMatch(b -> !registered.contains(b));
    long values = byBookie.values().stream().map(Reading::journalSyncData).distinct().count();
    if (allRead && !unregistered && values == 1) {
      return String.valueOf(byBookie.values().iterator().next().journalSyncData());
    }
    List<String> parts = new ArrayList<>();
    for (String bookie : registered) {
      Reading reading = byBookie.get(bookie);
      parts.add(bookie + (reading == null ? " not read" : " " + reading.journalSyncData()));
    }
    byBookie.values().stream()
        .filter(r -> !registered.contains(r.bookie()))
        .forEach(r -> parts.add(r.bookie() + " " + r.journalSyncData() + " (not registered)"));
    String note =
        values > 1
            ? "the bookies disagree"
            : !allRead
                ? "not every registered bookie answered (client.bookieHttpUrls lists where to ask)"
                : "an answer came from a bookie the cluster does not list";
    return String.join(", ", parts) + " (" + note + ")";
  }

  /** Whether every registered bookie answered, each with {@code expected}. */
  static boolean allAre(List<Reading> readings, List<String> registered, boolean expected) {
    Map<String, Boolean> byBookie =
        readings.stream()
            .collect(
                Collectors.toMap(
                    Reading::bookie, Reading::journalSyncData, (first, again) -> first));
    return registered.stream().allMatch(b -> Boolean.valueOf(expected).equals(byBookie.get(b)));
  }
}
