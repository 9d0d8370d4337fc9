package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Reads what a subscription's partition queues (classic or quorum) hold once its consumers are
 * gone: each queue's depth, taken for every partition when the read starts (a passive declare,
 * whose count the broker answers from the queue itself), then that many messages consumed and
 * acknowledged from each queue on a connection of its own. With no consumer left, the broker has
 * requeued whatever the run's consumers left unacknowledged, so the depth is all the queue holds.
 */
final class QueueFinalRead {

  private static final int PREFETCH = 1_000;
  private static final int ACK_EVERY = 100;

  private QueueFinalRead() {}

  static String read(
      Connection connection,
      String topic,
      String subscription,
      int partitions,
      MessageListener sink,
      Duration timeout)
      throws Exception {
    ReadDeadline deadline = ReadDeadline.after(timeout);
    String[] queues = new String[partitions];
    long[] depths = new long[partitions];
    try (Channel channel = connection.createChannel()) {
      for (int p = 0; p < partitions; p++) {
        queues[p] = RoutingKeys.queueName(topic, subscription, p);
        depths[p] = channel.queueDeclarePassive(queues[p]).getMessageCount();
      }
    }
    for (int p = 0; p < partitions; p++) {
      if (depths[p] > 0) {
        drain(connection, queues[p], p, depths[p], sink, deadline);
      }
    }
    return describe(depths);
  }

  /** "queue depths 120 + 0 + 7 on 3 queues (127 messages)", as the broker reported them. */
  static String describe(long[] depths) {
    StringBuilder b = new StringBuilder("queue depth");
    b.append(depths.length == 1 ? " " : "s ");
    long total = 0;
    for (int p = 0; p < depths.length; p++) {
      b.append(p == 0 ? "" : " + ").append(depths[p]);
      total += depths[p];
    }
    if (depths.length > 1) {
      b.append(" on ").append(depths.length).append(" queues (").append(total).append(" messages)");
    }
    return b.toString();
  }

  private static void drain(
      Connection connection,
      String queue,
      int partition,
      long depth,
      MessageListener sink,
      ReadDeadline deadline)
      throws Exception {
    try (Channel channel = connection.createChannel()) {
      channel.basicQos(PREFETCH, false);
      CompletableFuture<Void> done = new CompletableFuture<>();
      DefaultConsumer consumer =
          new DefaultConsumer(channel) {
            // Touched only on this channel's dispatch thread.
            private long read;

            @Override
            public void handleDelivery(
                String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                throws IOException {
              if (read == depth) {
                // Not acknowledged: left in the queue, requeued when the channel closes.
                return;
              }
              AmqpHeader.deliver(properties.getHeaders(), body, partition, sink);
              read++;
              if (read == depth || read % ACK_EVERY == 0) {
                channel.basicAck(envelope.getDeliveryTag(), true);
              }
              if (read == depth) {
                done.complete(null);
              }
            }
          };
      String tag = channel.basicConsume(queue, false, consumer);
      deadline.await(
          done,
          "final read of queue "
              + queue
              + " did not read its depth of "
              + depth
              + " within "
              + deadline.timeout());
      channel.basicCancel(tag);
    }
  }
}
