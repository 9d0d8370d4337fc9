package io.plumb.remote;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.CompletableFuture;

/**
 * A broker stand-in that crosses JVMs: a producer sends each message as one UDP datagram to
 * 127.0.0.1:{@code port} and counts it acknowledged once handed to the kernel; the consumer, in
 * whichever worker JVM creates it, listens on that port. One subscription, so producers on one
 * worker and consumers on another measure end-to-end latency across two JVMs' clocks.
 */
public final class UdpRelayDriver implements BenchmarkDriver {
  private InetSocketAddress address;
  private DatagramChannel sender;

  @Override
  public void initialize(DriverConfig config) throws Exception {
    DriverSettings settings = config.settings().ignore("name", "driverClass");
    long port = settings.longValue("port", 0);
    if (port < 1 || port > 65535) {
      throw settings.error("port", "expected 1 to 65535, got " + port);
    }
    settings.finish();
    address = new InetSocketAddress("127.0.0.1", (int) port);
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public synchronized CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    try {
      if (sender == null) {
        sender = DatagramChannel.open();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DatagramChannel channel = sender;
    return CompletableFuture.completedFuture(
        new BenchmarkProducer() {
          @Override
          public void send(String key, byte[] payload, long token, SendListener listener) {
            try {
              channel.send(ByteBuffer.wrap(payload), address);
              listener.sendCompleted(token, null);
            } catch (IOException e) {
              listener.sendCompleted(token, e);
            }
          }

          @Override
          public void close() {}
        });
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    try {
      DatagramChannel channel = DatagramChannel.open().bind(address);
      Thread receiver =
          new Thread(
              () -> {
                ByteBuffer buffer = ByteBuffer.allocate(65_536);
                try {
                  while (true) {
                    buffer.clear();
                    channel.receive(buffer);
                    buffer.flip();
                    byte[] payload = new byte[buffer.remaining()];
                    buffer.get(payload);
                    listener.received(payload, 0);
                  }
                } catch (ClosedChannelException e) {
                  // the consumer was closed
                } catch (IOException e) {
                  listener.failed(e);
                }
              },
              "udp-relay-consumer");
      receiver.setDaemon(true);
      receiver.start();
      return CompletableFuture.completedFuture(channel::close);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (sender != null) {
      sender.close();
    }
  }
}
