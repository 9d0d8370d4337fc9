package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.AddressResolver;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.impl.recovery.RecordedConsumer;
import com.rabbitmq.client.impl.recovery.TopologyRecoveryFilter;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * AMQP connections to the nodes of {@code amqpUris}, with the client's own recovery. One factory
 * serves every connection, from the first URI: its credentials, virtual host and TLS hold for all
 * the URIs, which differ only in host and port. The client's automatic recovery reconnects a lost
 * connection (to the next address that answers), reopens its channels with their prefetch and
 * confirm mode, redeclares what it declared and restarts its consumers, except a stream queue's
 * (see {@link #CONSUMERS_NOT_RECOVERED}); sends on the lost connection fail (see {@link
 * PartitionPublisher}).
 */
final class AmqpConnections {
  private final ConnectionFactory factory;
  private final List<Address> addresses;
  private final AtomicInteger nextAddress = new AtomicInteger();

  /**
   * The client restarts a consumer with the arguments it was first registered with: a stream
   * queue's consumer would read again from its first {@code x-stream-offset} ("first"), delivering
   * the whole stream a second time (every message received before the loss counted as a duplicate).
   * With stream queues, {@link AmqpConsumer} consumes again itself, after the last offset it
   * delivered.
   */
  private static final TopologyRecoveryFilter CONSUMERS_NOT_RECOVERED =
      new TopologyRecoveryFilter() {
        @Override
        public boolean filterConsumer(RecordedConsumer consumer) {
          return false;
        }
      };

  private AmqpConnections(ConnectionFactory factory, List<Address> addresses) {
    this.factory = factory;
    this.addresses = List.copyOf(addresses);
  }

  /**
   * The factory and addresses the file's {@code amqpUris} give; a URI that cannot be is refused.
   */
  static AmqpConnections of(DriverSettings settings, RabbitMqConfig config)
      throws DriverConfigException {
    ConnectionFactory factory = parse(settings, config.amqpUris().get(0));
    List<Address> addresses = new ArrayList<>();
    for (String uri : config.amqpUris()) {
      ConnectionFactory other = parse(settings, uri);
      if (!other.getUsername().equals(factory.getUsername())
          || !other.getPassword().equals(factory.getPassword())
          || !other.getVirtualHost().equals(factory.getVirtualHost())
          || other.isSSL() != factory.isSSL()) {
        throw settings.error(
            "amqpUris",
            "'"
                + uri
                + "' differs from the first URI in credentials, virtual host or TLS; allowed:"
                + " URIs of one cluster, differing only in host and port");
      }
      addresses.add(new Address(other.getHost(), other.getPort()));
    }
    factory.setAutomaticRecoveryEnabled(true);
    factory.setTopologyRecoveryEnabled(true);
    if (config.queueType() == QueueType.STREAM) {
      factory.setTopologyRecoveryFilter(CONSUMERS_NOT_RECOVERED);
    }
    factory.setNetworkRecoveryInterval(config.recoveryIntervalMs());
    factory.setRequestedHeartbeat(config.heartbeatSeconds());
    factory.setConnectionTimeout(5_000);
    factory.setExceptionHandler(new OneLineExceptionHandler());
    return new AmqpConnections(factory, addresses);
  }

  private static ConnectionFactory parse(DriverSettings settings, String uri)
      throws DriverConfigException {
    ConnectionFactory factory = new ConnectionFactory();
    try {
      factory.setUri(uri);
    } catch (Exception e) {
      throw settings.error("amqpUris", "'" + uri + "' is not an AMQP URI: " + e.getMessage());
    }
    return factory;
  }

  /**
   * A new connection to the next of {@code amqpUris} in turn (round robin), which falls back to the
   * others in order when that one does not answer, at first and on every recovery.
   */
  Connection open(String name) throws Exception {
    return open(factory, name);
  }

  /**
   * A connection that declares through short-lived channels, closed once done: nothing of it is to
   * be declared again on recovery (each consumer declares the queue it reads itself).
   */
  Connection openForAdministration(String name) throws Exception {
    ConnectionFactory admin = factory.clone();
    admin.setTopologyRecoveryEnabled(false);
    return open(admin, name);
  }

  private Connection open(ConnectionFactory factory, String name) throws Exception {
    int first = Math.floorMod(nextAddress.getAndIncrement(), addresses.size());
    List<Address> order = new ArrayList<>(addresses.size());
    for (int i = 0; i < addresses.size(); i++) {
      order.add(addresses.get((first + i) % addresses.size()));
    }
    // No executor of our own: the client gives each connection its consumer dispatch pool.
    return factory.newConnection(null, new InOrder(order), name);
  }

  /** The addresses, as {@code host:port,...}. */
  String describe() {
    return String.join(",", addresses.stream().map(Address::toString).toList());
  }

  String username() {
    return factory.getUsername();
  }

  String password() {
    return factory.getPassword();
  }

  String virtualHost() {
    return factory.getVirtualHost();
  }

  /** The addresses in the order given: the client would otherwise shuffle them. */
  private record InOrder(List<Address> addresses) implements AddressResolver {
    @Override
    public List<Address> getAddresses() {
      return addresses;
    }

    @Override
    public List<Address> maybeShuffle(List<Address> input) {
      return input;
    }
  }
}
