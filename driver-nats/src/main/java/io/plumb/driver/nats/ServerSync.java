package io.plumb.driver.nats;

import io.nats.client.support.JsonParseException;
import io.nats.client.support.JsonParser;
import io.nats.client.support.JsonValue;
import io.nats.client.support.JsonValueUtils;
import io.plumb.driver.AdminHttp;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * JetStream's sync policy as each server reports it on its monitoring endpoint ({@code /varz}, the
 * JetStream configuration the server runs with): whether it fsyncs every write before acknowledging
 * it ({@code sync_interval: always}), or leaves its file store to be synced in the background
 * (NATS's default, every 2 minutes), when a power loss takes what was acknowledged since. The
 * client protocol does not carry the setting, and only the system account may ask a server for its
 * configuration over NATS, so the driver asks the monitoring port.
 */
final class ServerSync {
  /** NATS's own sync interval when the configuration sets none. */
  private static final long DEFAULT_INTERVAL_NANOS = Duration.ofMinutes(2).toNanos();

  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final String VARZ = "/varz";

  /**
   * One server's answer.
   *
   * @param server its {@code server_name}, as JetStream names stream leaders ({@code n2})
   * @param policy {@code always}, {@code default}, or the interval it has ({@code every 10 s})
   * @param monitor where it was read
   */
  record Reading(String server, String policy, URI monitor) {}

  private ServerSync() {}

  /** Every monitoring endpoint's answer, in order; fails naming the first that gave none. */
  static List<Reading> read(List<URI> monitors) throws IOException, InterruptedException {
    return AdminHttp.getEach(monitors, VARZ, TIMEOUT, ServerSync::reading);
  }

  /** One server's /varz answer, as its body came. */
  static Reading reading(String body, URI monitor) throws IOException {
    try {
      return reading(JsonParser.parse(body), monitor);
    } catch (JsonParseException e) {
      throw new IOException(monitor.resolve(VARZ) + ": not JSON (" + e.getMessage() + ")", e);
    }
  }

  /** The policy in a /varz answer; a server without JetStream has none to report. */
  static Reading reading(JsonValue varz, URI monitor) throws IOException {
    String server = JsonValueUtils.readString(varz, "server_name", "?");
    JsonValue config =
        JsonValueUtils.readValue(JsonValueUtils.readValue(varz, "jetstream"), "config");
    if (config == null) {
      throw new IOException(monitor + ": server " + server + " reports no JetStream configuration");
    }
    String policy;
    if (JsonValueUtils.readBoolean(config, "sync_always", false)) {
      policy = "always";
    } else {
      long interval = JsonValueUtils.readLong(config, "sync_interval", 0);
      policy =
          interval == DEFAULT_INTERVAL_NANOS
              ? "default"
              : "every "
                  + BigDecimal.valueOf(Duration.ofNanos(interval).toMillis(), 3)
                      .stripTrailingZeros()
                      .toPlainString()
                  + " s";
    }
    return new Reading(server, policy, monitor);
  }

  /**
   * The one policy every server reports, or each server's when they differ: "n1 always, n2 ...".
   */
  static String describe(List<Reading> readings) {
    if (readings.stream().map(Reading::policy).distinct().count() == 1) {
      return readings.get(0).policy();
    }
    return readings.stream()
        .map(r -> r.server() + " " + r.policy())
        .collect(Collectors.joining(", "));
  }
}
