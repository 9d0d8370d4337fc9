package io.plumb.driver;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The producers and consumers a driver has handed out, so that its {@link BenchmarkDriver#close()}
 * closes whatever a failed run left open. Closing goes through every one of them whatever the
 * others throw, so one broken client never keeps the rest (and their connections) open; a client
 * the framework closed already is closed again, so its close() must allow that.
 */
public final class OpenClients {
  private final List<AutoCloseable> clients = new CopyOnWriteArrayList<>();

  /** Keeps {@code client} to close with the driver, and returns it. */
  public <T extends AutoCloseable> T add(T client) {
    clients.add(client);
    return client;
  }

  /**
   * Closes every client kept and forgets them all.
   *
   * @return the first failure, or null: the driver goes on closing its own connections and throws
   *     it at the end
   */
  public Exception closeAll() {
    Exception first = null;
    for (AutoCloseable client : clients) {
      try {
        client.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    clients.clear();
    return first;
  }
}
