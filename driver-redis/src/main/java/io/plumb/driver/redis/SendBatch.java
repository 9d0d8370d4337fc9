package io.plumb.driver.redis;

import io.plumb.driver.SendListener;
import java.util.Arrays;

/**
 * Up to {@code depth} messages that go to the server as one pipeline: their commands, encoded back
 * to back, and who to tell when each one's reply arrives. Reused for the producer's lifetime.
 */
final class SendBatch {

  final RespBuffer commands;
  private final long[] tokens;
  private final int[] partitions;
  private final SendListener[] listeners;
  private final Throwable[] failures;
  private int count;

  SendBatch(int depth, int bytesPerCommand) {
    this.commands = new RespBuffer(depth * bytesPerCommand);
    this.tokens = new long[depth];
    this.partitions = new int[depth];
    this.listeners = new SendListener[depth];
    this.failures = new Throwable[depth];
  }

  int count() {
    return count;
  }

  /**
   * Records the message whose command was just encoded into {@link #commands}, for the stream key
   * (or channel) of {@code partition}.
   */
  void added(long token, int partition, SendListener listener) {
    tokens[count] = token;
    partitions[count] = partition;
    listeners[count] = listener;
    count++;
  }

  void failed(int index, Throwable failure) {
    failures[index] = failure;
  }

  /** Fails messages {@code from..count-1} that have no reply (the connection broke). */
  void failFrom(int from, Throwable failure) {
    Arrays.fill(failures, from, count, failure);
  }

  /** Fails every message that has no failure yet (its reply was fine, but the batch is not). */
  void failUnfailed(Throwable failure) {
    for (int i = 0; i < count; i++) {
      if (failures[i] == null) {
        failures[i] = failure;
      }
    }
  }

  /** Completes every message once, with its failure or none, and empties the batch for reuse. */
  void complete() {
    for (int i = 0; i < count; i++) {
      listeners[i].sendCompleted(tokens[i], partitions[i], failures[i]);
    }
    Arrays.fill(listeners, 0, count, null);
    Arrays.fill(failures, 0, count, null);
    count = 0;
    commands.clear();
  }
}
