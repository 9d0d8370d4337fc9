package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.impl.Client;
import io.plumb.driver.BrokerFactNames;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The largest message the stream protocol carries, from the frame size a connection negotiated: the
 * client sends each message in a publish frame no larger than that, and throws on one that does not
 * fit from a thread of its own, after {@code send} has returned, so the send would never complete.
 * Reported as {@link BrokerFactNames#MAX_MESSAGE_BYTES}, so a larger {@code messageSize} is refused
 * before any stream exists.
 */
final class StreamFrameLimit {

  /**
   * What the client adds to a message's encoded size when it checks that it fits in a frame: the
   * publish frame's length, key, version, publisher id and message count, the publishing id and the
   * message's length.
   */
  static final int PUBLISH_FRAME_BYTES = 24;

  /**
   * What AMQP 1.0 adds around a body of 256 bytes or more, which the driver sends as a message with
   * one data section and nothing else: the section's descriptor (3 bytes) and a vbin32's code and
   * length (5). Smaller bodies take less, so the limit holds for every size.
   */
  static final int DATA_SECTION_BYTES = 8;

  private StreamFrameLimit() {}

  /**
   * The frame size {@code client} negotiated with the broker. The client keeps it in a
   * package-private accessor, which is read by reflection: empty if a later client has none, and
   * the run then goes without the fact, as with a broker that names no limit.
   */
  static OptionalInt negotiated(Client client) {
    try {
      Method maxFrameSize = Client.class.getDeclaredMethod("maxFrameSize");
      maxFrameSize.setAccessible(true);
      int bytes = (int) maxFrameSize.invoke(client);
      return bytes > 0 ? OptionalInt.of(bytes) : OptionalInt.empty();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return OptionalInt.empty();
    }
  }

  /** The size facts for a connection that negotiated {@code frameBytes}. */
  static void addFacts(Map<String, String> facts, int frameBytes, int requested) {
    int overhead = PUBLISH_FRAME_BYTES + DATA_SECTION_BYTES;
    facts.put(BrokerFactNames.MAX_MESSAGE_BYTES, String.valueOf(frameBytes - overhead));
    facts.put(
        BrokerFactNames.MAX_MESSAGE_BYTES_LIMIT,
        "the stream connection's frame size "
            + frameBytes
            + " (the smaller of the driver's requestedMaxFrameSize "
            + requested
            + " and the broker's stream.frame_max), less "
            + overhead
            + " bytes of publish frame and AMQP 1.0 data section; raise both, e.g."
            + " --driver-set requestedMaxFrameSize=N and stream.frame_max = N in rabbitmq.conf");
  }
}
