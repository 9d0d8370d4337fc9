package io.plumb.remote;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.MessageListener;
import io.plumb.worker.SendOnlyProducer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * A broker stand-in that crosses JVMs on one host, with a known one-way delay: a producer sends
 * each message as one UDP datagram to 127.0.0.1:{@code port}, prefixed with its {@link
 * System#nanoTime()} at the send, and counts it acknowledged once handed to the kernel; the
 * consumer, in whichever worker JVM creates it, listens on that port and hands each message on at
 * that send time plus {@code delayMillis}, by its own {@link System#nanoTime()}.
 *
 * <p>Both JVMs read the same clock there: nanoTime is the host's CLOCK_MONOTONIC, one for every
 * process, and libfaketime leaves it alone under {@code FAKETIME_DONT_FAKE_MONOTONIC}. So every
 * message takes at least {@code delayMillis} from send to delivery, and no more than that plus the
 * consumer thread's wake-up: a link of fixed delay, timed from the send as a network's delay is.
 * Holding each datagram for the delay after it is read instead would add the kernel's part and any
 * stall of the consumer thread before the hold, leaving the true delay unknown by that much.
 */
public final class UdpRelayDriver implements BenchmarkDriver {
  private static final int STAMP_BYTES = Long.BYTES;

  private InetSocketAddress address;
  private long delayNanos;
  private DatagramChannel sender;

  @Override
  public void initialize(DriverConfig config) throws Exception {
    DriverSettings settings = config.settings();
    long port = settings.longValue("port", 0);
    if (port < 1 || port > 65535) {
      throw settings.error("port", "expected 1 to 65535, got " + port);
    }
    long delayMillis = settings.longValue("delayMillis", 0);
    if (delayMillis < 0 || delayMillis > 10_000) {
      throw settings.error("delayMillis", "expected 0 to 10000, got " + delayMillis);
    }
    settings.finish();
    address = new InetSocketAddress("127.0.0.1", (int) port);
    delayNanos = delayMillis * 1_000_000;
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
    return SendOnlyProducer.completed(
        (key, payload, token, listener) -> {
          ByteBuffer datagram = ByteBuffer.allocate(STAMP_BYTES + payload.length);
          datagram.putLong(System.nanoTime()).put(payload).flip();
          try {
            channel.send(datagram, address);
            listener.sendCompleted(token, null);
          } catch (IOException e) {
            listener.sendCompleted(token, e);
          }
        });
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    try {
      DatagramChannel channel = DatagramChannel.open().bind(address);
      DaemonThreads.start("udp-relay-consumer", () -> relay(channel, listener));
      return CompletableFuture.completedFuture(channel::close);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * One thread both reads and delays: datagrams come in the order they were sent, each due a fixed
   * time after its send, so while one waits the next waits in the socket's buffer, due no earlier.
   */
  private void relay(DatagramChannel channel, MessageListener listener) {
    ByteBuffer buffer = ByteBuffer.allocate(65_536);
    try {
      while (true) {
        buffer.clear();
        channel.receive(buffer);
        buffer.flip();
        long due = buffer.getLong() + delayNanos;
        byte[] payload = new byte[buffer.remaining()];
        buffer.get(payload);
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
          LockSupport.parkNanos(wait);
        }
        listener.received(payload, 0);
      }
    } catch (ClosedChannelException e) {
      // the consumer was closed
    } catch (IOException e) {
      listener.failed(e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (sender != null) {
      sender.close();
    }
  }
}
