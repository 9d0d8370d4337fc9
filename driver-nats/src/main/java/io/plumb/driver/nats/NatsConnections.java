package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.time.Duration;

/**
 * Connections to the cluster with jnats's own recovery: each knows every server of {@code
 * natsHostUrl} (and those the server announces), reconnects without limit when its server goes
 * away, keeps publishes made meanwhile in its reconnect buffer (8 MiB) and resubscribes; a publish
 * that does not fit fails at once. The constants say how fast it notices.
 */
final class NatsConnections {
  /**
   * How often each connection pings its server, and how many pings may go unanswered before the
   * client drops the connection and reconnects elsewhere: a server frozen (SIGSTOP) or cut off is
   * noticed within 3 to 5 s (a killed one at once, by its closed socket), where jnats's default (2
   * minutes, 2 pings) would leave a connection on a frozen server for 4 minutes.
   */
  static final Duration PING_INTERVAL = Duration.ofSeconds(1);

  static final int MAX_PINGS_OUT = 3;

  /**
   * A request (a JetStream publish awaiting its ack, an API call) not answered within this fails;
   * jnats checks every interval, so an unanswered publish fails 5 to 10 s after it was sent. This
   * is jnats's default, written here because it bounds how long a send can stay pending.
   */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  /** Pause after trying every server of the list before trying them again. */
  static final Duration RECONNECT_WAIT = Duration.ofSeconds(1);

  /** Bounds each connection attempt, so a server whose traffic is dropped costs 2 s, not more. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

  private NatsConnections() {}

  /** Connects as {@code name}; {@code errors} and {@code events} hear what happens to it. */
  static Connection open(
      NatsDriverConfig config, String name, ErrorListener errors, ConnectionListener events)
      throws IOException, InterruptedException {
    Options options =
        new Options.Builder()
            .servers(config.servers())
            .connectionName(name)
            .connectionTimeout(CONNECT_TIMEOUT)
            .maxReconnects(-1)
            .reconnectWait(RECONNECT_WAIT)
            .pingInterval(PING_INTERVAL)
            .maxPingsOut(MAX_PINGS_OUT)
            .requestCleanupInterval(REQUEST_TIMEOUT)
            // jnats checks a subject on every publish; the driver checks each of its subjects
            // once, where it makes them (Subjects#partition), so the client need not.
            .subjectValidationType(Options.SubjectValidationType.None)
            .errorListener(errors)
            .connectionListener(events)
            .build();
    return Nats.connect(options);
  }
}
