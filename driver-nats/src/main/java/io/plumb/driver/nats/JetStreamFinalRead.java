package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PushSubscribeOptions;
import io.nats.client.api.StreamState;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;

/**
 * Reads a topic's JetStream stream to the end the server reports: the stream's last sequence in its
 * info, taken when the read starts, read from the stream's first sequence with an ordered consumer
 * of its own (ephemeral, flow-controlled, re-created by jnats at the right sequence if a gap
 * shows). Streams keep every message for each subscription (limits retention), so the read is the
 * same whatever the subscription; messages reach the sink with the partition the run's consumers
 * give them, parsed from the subject {@code <topic>.<p>}, and with Plumb's header apart when it
 * travelled in a message header (see {@link NatsHeader}).
 *
 * <p>A stream the server no longer has reads as empty: after a power loss of every server that had
 * not yet fsynced its creation (NATS's default sync policy), the cluster comes back without it, and
 * everything it held is gone. The server's answer "stream not found" is then the end of the topic,
 * and every acknowledged message the consumers had not received counts as lost.
 */
final class JetStreamFinalRead {
  private static final int STREAM_NOT_FOUND = 10059;
  private static final long RETRY_PAUSE_MILLIS = 250;

  private JetStreamFinalRead() {}

  static String read(Connection connection, String topic, MessageListener sink, Duration timeout)
      throws Exception {
    String stream = Subjects.name(topic);
    long deadline = System.nanoTime() + timeout.toNanos();
    StreamState state;
    try {
      state =
          untilDeadline(
              () -> connection.jetStreamManagement().getStreamInfo(stream).getStreamState(),
              deadline);
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == STREAM_NOT_FOUND) {
        return "stream " + stream + " no longer exists on the server (0 messages)";
      }
      throw e;
    }
    long first = state.getFirstSequence();
    long last = state.getLastSequence();
    String end =
        "stream "
            + stream
            + " sequences "
            + first
            + ".."
            + last
            + " ("
            + state.getMsgCount()
            + " messages)";
    if (state.getMsgCount() == 0) {
      return end;
    }
    int prefix = topic.length() + 1;
    JetStreamSubscription subscription =
        untilDeadline(
            () ->
                connection
                    .jetStream()
                    .subscribe(
                        Subjects.wildcard(topic),
                        PushSubscribeOptions.builder().stream(stream).ordered(true).build()),
            deadline);
    try {
      long sequence = 0;
      while (sequence < last) {
        long left = deadline - System.nanoTime();
        Message message = left <= 0 ? null : subscription.nextMessage(Duration.ofNanos(left));
        if (message == null) {
          throw new TimeoutException(
              "final read of " + end + " reached sequence " + sequence + " within " + timeout);
        }
        sequence = message.metaData().streamSequence();
        if (sequence <= last) {
          NatsHeader.deliver(message, Subjects.partitionOf(message.getSubject(), prefix), sink);
        }
      }
    } finally {
      subscription.unsubscribe();
    }
    return end;
  }

  /**
   * Asks again while the JetStream API answers nothing, until the read's deadline. Right after a
   * whole cluster restarts (a power loss of every node), the stream's own Raft group may not have a
   * leader yet, and its requests time out after jnats's 2 s; the read then failed although the
   * stream came back moments later (seen in CI under the always-sync policy).
   */
  private static <T> T untilDeadline(Callable<T> request, long deadline) throws Exception {
    while (true) {
      try {
        return request.call();
      } catch (IOException e) {
        if (System.nanoTime() + RETRY_PAUSE_MILLIS * 1_000_000 >= deadline) {
          throw e;
        }
        Thread.sleep(RETRY_PAUSE_MILLIS);
      }
    }
  }
}
