package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.impl.Client;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where the broker says a stream's copies are, from the stream protocol's metadata: its leader and
 * its running replicas, each as the host and port its node advertises, named after the node whose
 * stream listener has that address.
 *
 * <p>Not the management API's {@code members}: RabbitMQ 3.10 reports a stream's members only in
 * statistics each node emits every 5 s, and drops them from a round in which the stream coordinator
 * does not answer in time, which on a loaded host can last longer than a run's setup. The metadata
 * is what every stream client asks before it publishes or consumes.
 */
final class StreamTopology implements AutoCloseable {
  private static final long POLL_MILLIS = 200;

  private final Client client;
  private final Map<String, String> nodeByAddress;

  /**
   * @param parameters where the stream protocol answers (node 1), with credentials
   * @param nodeByAddress node names by the {@code host:port} (or {@code *:port}) of their stream
   *     listeners
   */
  StreamTopology(Client.ClientParameters parameters, Map<String, String> nodeByAddress) {
    this.client = new Client(parameters);
    this.nodeByAddress = Map.copyOf(nodeByAddress);
  }

  /**
   * The stream's leader and running replicas, once the broker reports {@code expected} of them or
   * after {@code timeout} with as many as it reports then: replicas start on their nodes shortly
   * after the stream is created.
   */
  QueueCopies await(String stream, int expected, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Client.StreamMetadata metadata = client.metadata(stream).get(stream);
      if (metadata == null || !metadata.isResponseOk()) {
        throw new IOException(
            "the broker has no metadata for stream "
                + stream
                + (metadata == null ? "" : " (response code " + metadata.getResponseCode() + ")"));
      }
      List<String> members = new ArrayList<>();
      String leader = null;
      if (metadata.getLeader() != null) {
        leader = node(metadata.getLeader());
        members.add(leader);
      }
      metadata.getReplicas().forEach(replica -> members.add(node(replica)));
      if (members.size() >= expected || System.nanoTime() > deadline) {
        return new QueueCopies(stream, "stream", List.copyOf(members), leader);
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
    }
  }

  /** The node advertising {@code broker}'s address, or the address itself if none matches. */
  private String node(Client.Broker broker) {
    String exact = nodeByAddress.get(broker.getHost() + ":" + broker.getPort());
    if (exact != null) {
      return exact;
    }
    return nodeByAddress.getOrDefault(
        "*:" + broker.getPort(), broker.getHost() + ":" + broker.getPort());
  }

  @Override
  public void close() {
    client.close();
  }
}
