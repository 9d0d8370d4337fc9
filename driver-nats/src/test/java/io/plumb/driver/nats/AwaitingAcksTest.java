package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * A lost connection reported late fails the publishes sent before it was lost, and leaves those
 * sent since, which jnats sends again after reconnecting, to their acks.
 */
class AwaitingAcksTest {
  private static final long LOST_AT = 1_800_000_000_000L;
  private final IOException lost = new IOException("connection lost");

  @Test
  void aLateReportFailsOnlyThePublishesSentByTheLoss() {
    AwaitingAcks awaiting = new AwaitingAcks();
    CompletableFuture<String> before = new CompletableFuture<>();
    CompletableFuture<String> sameMillisecond = new CompletableFuture<>();
    CompletableFuture<String> after = new CompletableFuture<>();
    awaiting.add(before, LOST_AT - 5);
    awaiting.add(sameMillisecond, LOST_AT);
    awaiting.add(after, LOST_AT + 1);

    awaiting.failSentBy(LOST_AT, lost);

    assertSame(lost, causeOf(before));
    assertSame(lost, causeOf(sameMillisecond));
    assertFalse(after.isDone(), "sent after the loss: its ack comes on the next connection");
    after.complete("ack");
    assertEquals("ack", after.join());
  }

  @Test
  void aPublishRemovedOnItsAckIsNotFailedAfterwards() {
    AwaitingAcks awaiting = new AwaitingAcks();
    CompletableFuture<String> acked = new CompletableFuture<>();
    long key = awaiting.add(acked, LOST_AT - 1);
    acked.complete("ack");
    awaiting.remove(key);

    awaiting.failSentBy(Long.MAX_VALUE, lost);

    assertEquals("ack", acked.join());
  }

  @Test
  void publishesOfOneMillisecondAreKeptApart() {
    AwaitingAcks awaiting = new AwaitingAcks();
    CompletableFuture<?>[] acks = new CompletableFuture<?>[1000];
    for (int i = 0; i < acks.length; i++) {
      acks[i] = new CompletableFuture<String>();
      awaiting.add(acks[i], LOST_AT);
    }

    awaiting.failSentBy(LOST_AT, lost);

    for (CompletableFuture<?> ack : acks) {
      assertTrue(ack.isCompletedExceptionally());
    }
  }

  private static Throwable causeOf(CompletableFuture<?> future) {
    assertTrue(future.isCompletedExceptionally());
    try {
      future.get();
      throw new AssertionError("not failed");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
