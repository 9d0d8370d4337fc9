package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nats.client.Message;
import io.nats.client.MessageHandler;
import io.nats.client.impl.NatsMessage;
import io.plumb.driver.MessageListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The consumers' handler, without a server: the partition comes from the subject, and only a
 * message the listener took is acknowledged.
 */
class TopicDeliveryTest {
  private final List<String> log = new ArrayList<>();

  @Test
  void aMessageReachesTheListenerOnItsSubjectsPartitionAndIsThenAcknowledged() throws Exception {
    MessageHandler handler =
        TopicDelivery.handler("orders.v2", listener(false), m -> log.add("ack " + m.getSubject()));
    handler.onMessage(message("orders.v2.7"));
    handler.onMessage(message("orders.v2.x"));
    assertEquals(
        List.of(
            "received 3 byte(s) on 7",
            "ack orders.v2.7",
            "received 3 byte(s) on " + MessageListener.UNKNOWN_PARTITION,
            "ack orders.v2.x"),
        log);
  }

  @Test
  void aListenerThatThrowsIsToldAndTheMessageIsNotAcknowledged() throws Exception {
    TopicDelivery.handler("t", listener(true), m -> log.add("ack")).onMessage(message("t.0"));
    assertEquals(List.of("received 3 byte(s) on 0", "failed boom"), log);
  }

  private static Message message(String subject) {
    return NatsMessage.builder().subject(subject).data(new byte[] {1, 2, 3}).build();
  }

  private MessageListener listener(boolean throwing) {
    return new MessageListener() {
      @Override
      public void received(byte[] payload, int partition) {
        log.add("received " + payload.length + " byte(s) on " + partition);
        if (throwing) {
          throw new IllegalStateException("boom");
        }
      }

      @Override
      public void received(byte[] header, byte[] payload, int partition) {
        received(payload, partition);
      }

      @Override
      public void failed(Throwable error) {
        log.add("failed " + error.getMessage());
      }
    };
  }
}
