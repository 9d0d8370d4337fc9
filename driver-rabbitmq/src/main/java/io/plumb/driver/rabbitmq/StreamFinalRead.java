package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.NoOffsetException;
import com.rabbitmq.stream.OffsetSpecification;
import com.rabbitmq.stream.StreamException;
import com.rabbitmq.stream.impl.Client;
import io.plumb.driver.MessageListener;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Reads a topic's partition streams to the end the broker reports when the read starts: each
 * stream's last committed chunk, as the broker delivers it to a subscription at offset {@code last}
 * (the chunk's first offset and record count give the stream's last offset; RabbitMQ 3.10 has no
 * stream-statistics command). Then every stream is read from its first offset to that last one with
 * a consumer of its own, whatever the subscription: streams are read non-destructively.
 *
 * <p>An empty stream delivers no chunk at all; on RabbitMQ 3.11 and later the stream statistics
 * tell it apart, on 3.10 the read fails when the deadline passes, naming the stream.
 */
final class StreamFinalRead {

  private StreamFinalRead() {}

  static String read(
      Environment environment,
      Supplier<Client.ClientParameters> locator,
      String topic,
      int partitions,
      int credits,
      MessageListener sink,
      Duration timeout)
      throws Exception {
    ReadDeadline deadline = ReadDeadline.after(timeout);
    long[] lastOffsets = new long[partitions];
    boolean statistics = true;
    for (int p = 0; p < partitions; p++) {
      String stream = StreamNames.partition(topic, p);
      if (statistics) {
        try {
          environment.queryStreamStats(stream).committedChunkId();
        } catch (NoOffsetException e) {
          lastOffsets[p] = -1;
          continue;
        } catch (StreamException e) {
          if (!(e.getCause() instanceof UnsupportedOperationException)) {
            throw e;
          }
          // RabbitMQ 3.10: no statistics; the last chunk alone tells the end.
          statistics = false;
        }
      }
      lastOffsets[p] = lastChunkEnd(locator, stream, deadline);
    }
    for (int p = 0; p < partitions; p++) {
      if (lastOffsets[p] >= 0) {
        readStream(environment, topic, p, lastOffsets[p], credits, sink, deadline);
      }
    }
    return describe(lastOffsets);
  }

  /** "last offsets 199, 201 on 2 streams"; "none" for an empty stream. */
  static String describe(long[] lastOffsets) {
    StringBuilder b = new StringBuilder(lastOffsets.length == 1 ? "last offset " : "last offsets ");
    for (int p = 0; p < lastOffsets.length; p++) {
      b.append(p == 0 ? "" : ", ").append(lastOffsets[p] < 0 ? "none" : lastOffsets[p]);
    }
    return b.append(" on ").append(lastOffsets.length).append(" streams").toString();
  }

  /** The last offset of the stream's last committed chunk (the stream must not be empty). */
  private static long lastChunkEnd(
      Supplier<Client.ClientParameters> locator, String stream, ReadDeadline deadline)
      throws Exception {
    // The leader holds the committed end; any node of the stream could serve the read itself.
    Client.ClientParameters at = locator.get();
    StreamLeaders.of(locator.get(), stream)
        .ifPresent(leader -> at.host(leader.getHost()).port(leader.getPort()));
    CompletableFuture<Long> last = new CompletableFuture<>();
    Client client =
        new Client(
            at.chunkListener(
                    (c, subscription, offset, records, size) -> {
                      last.complete(offset + records - 1);
                      return null;
                    })
                .messageListener((subscription, offset, time, committed, chunk, message) -> {}));
    try {
      Client.Response subscribed =
          client.subscribe((byte) 0, stream, OffsetSpecification.last(), 1);
      if (!subscribed.isOk()) {
        throw new IllegalStateException(
            "cannot subscribe to stream " + stream + ": code " + subscribed.getResponseCode());
      }
      return deadline.await(
          last,
          "stream " + stream + " delivered no last chunk before the deadline (empty, or down)");
    } finally {
      client.close();
    }
  }

  private static void readStream(
      Environment environment,
      String topic,
      int partition,
      long lastOffset,
      int credits,
      MessageListener sink,
      ReadDeadline deadline)
      throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    String stream = StreamNames.partition(topic, partition);
    Consumer consumer =
        environment.consumerBuilder().stream(stream)
            .offset(OffsetSpecification.first())
            .noTrackingStrategy()
            .messageHandler(
                (context, message) -> {
                  long offset = context.offset();
                  if (offset <= lastOffset) {
                    StreamHeader.deliver(message, partition, sink);
                  }
                  if (offset >= lastOffset) {
                    done.complete(null);
                  }
                })
            .flow()
            .initialCredits(credits)
            .builder()
            .build();
    try {
      deadline.await(
          done,
          "final read of stream "
              + stream
              + " did not reach offset "
              + lastOffset
              + " within "
              + deadline.timeout());
    } finally {
      consumer.close();
    }
  }
}
