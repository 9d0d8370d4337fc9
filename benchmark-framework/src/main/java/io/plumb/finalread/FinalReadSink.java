package io.plumb.finalread;

import io.plumb.driver.MessageListener;
import io.plumb.message.MessageHeader;
import io.plumb.stats.SequenceRanges;
import io.plumb.stats.SequenceSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one subscription's final read contained: per producer, the sequence numbers of this run's
 * load messages. Kept apart from the run's received figures (no duplicates, latencies or ordering):
 * the read only says what the broker still held. Other runs' messages and probes are counted as
 * read and otherwise ignored. Synchronized: a driver may hand messages over from any thread.
 */
public final class FinalReadSink implements MessageListener {
  private final int runId;
  private final Map<Integer, SequenceSet> byProducer = new HashMap<>();
  private long read;
  private Throwable failure;

  public FinalReadSink(int runId) {
    this.runId = runId;
  }

  @Override
  public synchronized void received(byte[] payload, int partition) {
    read++;
    if (!MessageHeader.isFromRun(payload, runId)
        || MessageHeader.producerId(payload) < 0
        || MessageHeader.kind(payload) != MessageHeader.KIND_LOAD) {
      return;
    }
    byProducer
        .computeIfAbsent(MessageHeader.producerId(payload), p -> new SequenceSet())
        .add(MessageHeader.sequence(payload));
  }

  /** Only the header matters here, and it reads the same on its own. */
  @Override
  public void received(byte[] header, byte[] payload, int partition) {
    received(header, partition);
  }

  /** A read that cannot go on fails: what it gathered so far never counts as the topic's end. */
  @Override
  public synchronized void failed(Throwable error) {
    if (failure == null) {
      failure = error;
    }
  }

  /** Every message the read handed over, of any run or kind. */
  public synchronized long messagesRead() {
    return read;
  }

  /** The error a driver reported through {@link #failed}, or null. */
  public synchronized Throwable failure() {
    return failure;
  }

  /** This run's load messages read, by producer id. */
  public synchronized Map<Integer, SequenceRanges> sequences() {
    Map<Integer, SequenceRanges> sets = new LinkedHashMap<>();
    byProducer.forEach((producer, set) -> sets.put(producer, set.ranges()));
    return sets;
  }
}
