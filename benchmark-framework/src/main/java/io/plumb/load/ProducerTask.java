package io.plumb.load;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import io.plumb.message.MessageHeader;
import io.plumb.stats.PublishRecorder;
import io.plumb.workload.KeyChooser;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One benchmark producer: its schedule, its reusable payload buffer, and the completion handling
 * that turns driver callbacks into latency records. Sends run on one {@link ProducerLoop} thread;
 * completions may come from any thread.
 */
public final class ProducerTask implements SendListener {
  private final int producerId;
  private final int recorderIndex;
  private final int runId;
  private final BenchmarkProducer producer;
  private final KeyChooser keys;
  private final byte[][] bodies;
  private final byte[] buffer;
  private final SplittableRandom bodyPicker;
  private final WorkerClock clock;
  private final PublishRecorder recorder;
  private RateSchedule schedule;
  private InFlightTimes inFlight;
  private long nextSequence;

  // Completions that arrive inside send() on the loop's own thread are timed when send() returns,
  // with the clock reading the loop takes anyway: one clock read per message instead of two.
  private Thread loopThread;
  private boolean inSend;
  private boolean deferred;
  private long deferredSequence;
  private Throwable deferredFailure;

  public ProducerTask(
      int producerId,
      int runId,
      BenchmarkProducer producer,
      KeyChooser keys,
      List<byte[]> bodies,
      WorkerClock clock,
      PublishRecorder recorder,
      int recorderIndex) {
    this.producerId = producerId;
    this.recorderIndex = recorderIndex;
    this.runId = runId;
    this.producer = producer;
    this.keys = keys;
    this.bodies = bodies.toArray(new byte[0][]);
    this.buffer = this.bodies[0].clone();
    this.bodyPicker = new SplittableRandom(producerId * 31L + runId);
    this.clock = clock;
    this.recorder = recorder;
  }

  /** Sets the schedule before the producer's loop starts. */
  void start(RateSchedule schedule, double messagesPerSecond) {
    this.loopThread = null;
    this.schedule = schedule;
    this.inFlight = InFlightTimes.forRate(messagesPerSecond);
    this.nextSequence = 0;
  }

  long nextIntendedTime() {
    return schedule.intendedTime(nextSequence);
  }

  /** Messages due by {@code time} on this producer's schedule. */
  long dueBy(long time) {
    return schedule.dueBy(time);
  }

  /** Called by the loop thread before its first send. */
  void attach(Thread thread) {
    this.loopThread = thread;
  }

  /**
   * Sends the next scheduled message; {@code now} is the actual send time. The loop must call
   * {@link #sendReturned} with its next clock reading.
   */
  void sendNext(long now) {
    long sequence = nextSequence++;
    if (bodies.length > 1) {
      byte[] body = bodies[bodyPicker.nextInt(bodies.length)];
      System.arraycopy(
          body, MessageHeader.SIZE, buffer, MessageHeader.SIZE, body.length - MessageHeader.SIZE);
    }
    MessageHeader.write(
        buffer,
        MessageHeader.KIND_LOAD,
        runId,
        producerId,
        sequence,
        schedule.intendedTime(sequence));
    inFlight.put(sequence, now);
    inSend = true;
    try {
      producer.send(keys.next(), buffer, sequence, this);
    } catch (RuntimeException e) {
      // A driver should report failures through the listener; a throwing one is counted the same.
      sendCompleted(sequence, e);
    } finally {
      inSend = false;
    }
  }

  /** Completes a send that finished inside send(), as of {@code returnedAt}. */
  void sendReturned(long returnedAt) {
    if (deferred) {
      deferred = false;
      complete(deferredSequence, deferredFailure, returnedAt);
      deferredFailure = null;
    }
  }

  /** Sends a readiness probe, which consumers recognise and do not count. */
  public void sendProbe(SendListener listener) {
    byte[] probe = buffer.clone();
    MessageHeader.write(probe, MessageHeader.KIND_PROBE, runId, producerId, -1, clock.now());
    producer.send(keys.next(), probe, -1, listener);
  }

  @Override
  public void sendCompleted(long sequence, Throwable failure) {
    if (Thread.currentThread() == loopThread && inSend) {
      if (deferred) {
        complete(deferredSequence, deferredFailure, clock.now());
      }
      deferred = true;
      deferredSequence = sequence;
      deferredFailure = failure;
      return;
    }
    complete(sequence, failure, clock.now());
  }

  private void complete(long sequence, Throwable failure, long completed) {
    if (failure != null) {
      recorder.failed(failure);
      return;
    }
    recorder.acknowledged(
        recorderIndex, schedule.intendedTime(sequence), inFlight.sentAt(sequence), completed);
  }

  public int producerId() {
    return producerId;
  }

  public BenchmarkProducer producer() {
    return producer;
  }
}
