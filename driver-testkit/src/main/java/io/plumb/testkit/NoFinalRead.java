package io.plumb.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.driver.FinalReader;
import java.time.Duration;
import java.util.Optional;

/**
 * A driver whose file configures a mode that cannot be read to its end: it keeps no messages (core
 * NATS, Redis Pub/Sub, Pulsar's non-persistent topics) or reports no end to read to (RabbitMQ's
 * streams over AMQP 0.9.1), so the driver says why and refuses the read.
 */
public final class NoFinalRead {

  private NoFinalRead() {}

  /**
   * {@code driver} gives {@code why} as its reason for no final read, and its {@link
   * FinalReader#readToEnd} throws {@link IllegalStateException} rather than read, in the words of
   * {@link FinalReader#requireFinalRead}: "no final read: " and the reason.
   *
   * @throws AssertionError otherwise
   */
  public static void assertRefused(FinalReader driver, String why) {
    assertEquals(Optional.of(why), driver.whyNoFinalRead());
    IllegalStateException refusal =
        assertThrows(
            IllegalStateException.class,
            () ->
                driver.readToEnd(
                    "any", "any", new KeyedMessages(1, 1).reading(), Duration.ofSeconds(1)));
    assertEquals("no final read: " + why, refusal.getMessage());
  }
}
