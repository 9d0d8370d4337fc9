package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;

/**
 * Counts the JetStream API requests the local server answers, from its account statistics, over a
 * connection of its own: what shows that a refused run made none (no stream, consumer or publish).
 */
final class JetStreamRequests implements AutoCloseable {
  private final Connection admin;
  private final JetStreamManagement jsm;
  private final long atStart;

  private JetStreamRequests(Connection admin) throws Exception {
    this.admin = admin;
    this.jsm = admin.jetStreamManagement();
    this.atStart = total();
  }

  /** Starts counting now. */
  static JetStreamRequests count() throws Exception {
    return new JetStreamRequests(LocalNats.admin());
  }

  /** Requests answered since {@link #count}, less one: the reading it took then. */
  long sinceStart() throws Exception {
    return total() - atStart - 1;
  }

  private long total() throws Exception {
    return jsm.getAccountStatistics().getApi().getTotal();
  }

  @Override
  public void close() throws Exception {
    admin.close();
  }
}
