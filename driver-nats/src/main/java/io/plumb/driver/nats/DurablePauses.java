package io.plumb.driver.nats;

import io.nats.client.JetStreamManagement;
import io.nats.client.api.ServerInfo;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.MessageListener;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Pauses and resumes JetStream durables on the server, for backlog workloads: the consumer pause
 * API of NATS 2.11 and later ({@code $JS.API.CONSUMER.PAUSE}). A paused durable delivers nothing,
 * to pull requests or to a push subject, and keeps its delivered and acknowledged state; resumed,
 * it goes on with the message after the last it delivered. The client side stays as it is: the
 * subscriptions, the pull loop and its heartbeat recovery run on, and no message is left delivered
 * but unacknowledged, so nothing is redelivered and nothing is lost (see {@link
 * JetStreamConsumer#pause}).
 *
 * <p>The requests run on one thread of their own, one at a time in the order asked: {@link #pause}
 * and {@link #resume} return at once, and a resume asked after a pause reaches the server after it,
 * whichever consumer asked (the members of a subscription share one durable).
 */
final class DurablePauses implements AutoCloseable {

  /** The first server version with the consumer pause API. */
  static final String FIRST_VERSION = "2.11.0";

  /**
   * How long a pause lasts if no resume comes (a worker that died while its consumers were paused):
   * the server resumes the durable by itself then.
   */
  static final Duration LONGEST = Duration.ofDays(7);

  /** Attempts of one request before its failure is reported: a request may time out in a fault. */
  private static final int ATTEMPTS = 3;

  private final JetStreamManagement management;
  private final Supplier<ServerInfo> server;
  private final ExecutorService requests =
      Executors.newSingleThreadExecutor(DaemonThreads.named("plumb-nats-consumer-pause"));

  /**
   * @param management the JetStream API on the driver's connection
   * @param server the INFO of the server that connection uses now
   */
  DurablePauses(JetStreamManagement management, Supplier<ServerInfo> server) {
    this.management = management;
    this.server = server;
  }

  /**
   * Asks the server to pause the durable; failures go to {@code listener}.
   *
   * @throws UnsupportedOperationException when the server is older than {@value #FIRST_VERSION}
   */
  void pause(Durable durable, MessageListener listener) {
    refuseOldServer();
    submit(
        "pause",
        durable,
        listener,
        () ->
            management
                .pauseConsumer(durable.stream(), durable.name(), ZonedDateTime.now().plus(LONGEST))
                .isPaused());
  }

  /** Asks the server to resume the durable; failures go to {@code listener}. */
  void resume(Durable durable, MessageListener listener) {
    refuseOldServer();
    // The server answers false when the durable was not paused: resumed all the same.
    submit(
        "resume",
        durable,
        listener,
        () -> {
          management.resumeConsumer(durable.stream(), durable.name());
          return true;
        });
  }

  private void refuseOldServer() {
    ServerInfo info = server.get();
    if (info.isOlderThanVersion(FIRST_VERSION)) {
      throw new UnsupportedOperationException(
          "NATS server "
              + info.getVersion()
              + " cannot pause JetStream consumers: the consumer pause API needs "
              + FIRST_VERSION
              + " or later");
    }
  }

  private interface Request {
    boolean done() throws Exception;
  }

  private void submit(String what, Durable durable, MessageListener listener, Request request) {
    requests.execute(
        () -> {
          Exception last = null;
          for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
              if (request.done()) {
                return;
              }
              last = new IllegalStateException("the server did not " + what + " it");
            } catch (Exception e) {
              last = e;
            }
          }
          listener.failed(new IllegalStateException(durable + ": " + what + " failed", last));
        });
  }

  /** Stops the request thread, after what was asked before (at most 5 s). */
  @Override
  public void close() throws InterruptedException {
    requests.shutdown();
    if (!requests.awaitTermination(5, TimeUnit.SECONDS)) {
      requests.shutdownNow();
    }
  }
}
