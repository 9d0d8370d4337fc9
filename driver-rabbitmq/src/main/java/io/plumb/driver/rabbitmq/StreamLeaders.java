package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.impl.Client;
import java.util.Optional;

/**
 * Which node leads a stream, as the stream protocol's metadata names it: the host and stream port
 * the node advertises, where producers publish and where the committed end is known.
 */
final class StreamLeaders {

  private StreamLeaders() {}

  /**
   * The stream's leader, asked on a connection of its own opened with {@code locator}; none when
   * the broker has no metadata for the stream or names no leader (one is being elected).
   */
  static Optional<Client.Broker> of(Client.ClientParameters locator, String stream) {
    Client client = new Client(locator);
    try {
      Client.StreamMetadata metadata = client.metadata(stream).get(stream);
      if (metadata == null || !metadata.isResponseOk()) {
        return Optional.empty();
      }
      return Optional.ofNullable(metadata.getLeader());
    } finally {
      client.close();
    }
  }
}
