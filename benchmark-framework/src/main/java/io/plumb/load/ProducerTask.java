package io.plumb.load;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import io.plumb.message.MessageHeader;
import io.plumb.stats.EventRing;
import io.plumb.stats.LastCallerRing;
import io.plumb.stats.StatsCollector;
import io.plumb.workload.KeyChooser;
import java.util.SplittableRandom;

/**
 * One benchmark producer: its schedule, and the completion handling that turns driver callbacks
 * into events for the worker's {@link StatsCollector}. Sends run on one {@link ProducerLoop}
 * thread; completions may come from any thread.
 *
 * <p>Nothing here grows with the message size or the payload pool: the pool is shared by every
 * producer of a worker, and the bytes handed to send() are a buffer shared by the producers of one
 * loop thread (a driver copies or sends them before send() returns). A worker with four million
 * producers holds each in a few hundred bytes.
 */
public final class ProducerTask implements SendListener {
  private final int producerId;
  private final int localIndex;
  private final int runId;
  private final BenchmarkProducer producer;
  private final KeyChooser keys;
  private final byte[][] bodies;
  private final boolean headerInMetadata;
  private PayloadBuffer buffer;
  private final SplittableRandom bodyPicker;
  private final WorkerClock clock;
  private final StatsCollector stats;
  private RateSchedule schedule;
  private InFlightTimes inFlight;
  private long nextSequence;

  // The loop's thread and ring, so completions on that thread skip the thread-local lookup.
  private Thread loopThread;
  private EventRing loopRing;
  // The ring of a driver thread that completes sends (its network thread), looked up once.
  private final LastCallerRing completionRings;

  // The loop thread's last computed intended time: the loop's heap asks for it, sendNext writes it
  // into the header and an inline completion needs it again, three long-double-long conversions a
  // message otherwise. Loop thread only; -1 when none is kept.
  private long keptSequence = -1;
  private long keptIntendedTime;

  /**
   * What every producer of a worker shares in a run: the run's id (in each header), the payload
   * pool, where the header travels, the clock and the stats collector.
   */
  public record Shared(
      int runId,
      byte[][] bodies,
      boolean headerInMetadata,
      WorkerClock clock,
      StatsCollector stats) {}

  /**
   * @param localIndex the producer's index among this worker's producers
   */
  public ProducerTask(
      int producerId, BenchmarkProducer producer, KeyChooser keys, int localIndex, Shared shared) {
    this.producerId = producerId;
    this.localIndex = localIndex;
    this.runId = shared.runId();
    this.producer = producer;
    this.keys = keys;
    this.bodies = shared.bodies();
    this.headerInMetadata = shared.headerInMetadata();
    this.bodyPicker = new SplittableRandom(producerId * 31L + runId);
    this.clock = shared.clock();
    this.stats = shared.stats();
    this.completionRings = new LastCallerRing(stats);
  }

  /**
   * Sets the schedule before the producer's loop starts; {@code buffer} is shared with the other
   * producers of the same loop thread.
   */
  void start(RateSchedule schedule, double messagesPerSecond, PayloadBuffer buffer) {
    this.loopThread = null;
    this.buffer = buffer;
    this.schedule = schedule;
    this.inFlight = InFlightTimes.forRate(messagesPerSecond);
    this.nextSequence = 0;
    this.keptSequence = -1;
  }

  /**
   * Moves to {@code messagesPerSecond} from the first message not yet due at {@code now}; earlier
   * messages keep their intended times (see {@link RateSchedule#changeRate}). Called on the loop's
   * thread between sends. Completions on other threads read the schedule without a lock: the
   * segments are immutable, and old and new agree on every sequence already sent.
   */
  void adjustRate(double messagesPerSecond, long now) {
    schedule = schedule.changeRate(nextSequence, now, messagesPerSecond);
    keptSequence = -1;
  }

  long nextIntendedTime() {
    return intendedTimeOnLoop(nextSequence);
  }

  private long intendedTimeOnLoop(long sequence) {
    if (sequence != keptSequence) {
      keptIntendedTime = schedule.intendedTime(sequence);
      keptSequence = sequence;
    }
    return keptIntendedTime;
  }

  /** Messages due by {@code time} on this producer's schedule. */
  long dueBy(long time) {
    return schedule.dueBy(time);
  }

  /** Called by the loop thread before its first send, with that thread's ring. */
  void attach(Thread thread, EventRing ring) {
    this.loopThread = thread;
    this.loopRing = ring;
  }

  /** Asks {@link #sendNext} to read the clock itself, after Plumb's own work for the message. */
  static final long READ_CLOCK = Long.MIN_VALUE;

  /**
   * Sends the next scheduled message and returns its actual send time: {@code sentAt}, or with
   * {@link #READ_CLOCK} the clock's reading just before the driver's send(). The loop defers the
   * ring's times around this call, so completions and deliveries inside send() are stamped with the
   * loop's next clock reading.
   */
  long sendNext(long sentAt) {
    long sequence = nextSequence++;
    byte[] body = bodies.length == 1 ? bodies[0] : bodies[bodyPicker.nextInt(bodies.length)];
    // The header starts the payload; in metadata it is an array of its own, and the pool's body
    // goes out whole, uncopied.
    byte[] headed = headerInMetadata ? buffer.header() : buffer.holding(body);
    MessageHeader.write(
        headed, MessageHeader.KIND_LOAD, runId, producerId, sequence, intendedTimeOnLoop(sequence));
    String key = keys.next();
    // Read after Plumb's own work for this message, so the loop times only the driver's send().
    long now = sentAt == READ_CLOCK ? clock.now() : sentAt;
    inFlight.put(sequence, now);
    try {
      if (headerInMetadata) {
        producer.send(key, headed, body, sequence, this);
      } else {
        producer.send(key, headed, sequence, this);
      }
    } catch (RuntimeException e) {
      // A driver should report failures through the listener; a throwing one is counted the same.
      sendCompleted(sequence, e);
    }
    return now;
  }

  /** Sends a readiness probe, which consumers recognise and do not count. */
  public void sendProbe(SendListener listener) {
    sendProbe(listener, probeBuffer());
  }

  /**
   * Sends a readiness probe in {@code buffer}, from {@link #probeBuffer()}, which the caller may
   * reuse once this returns (a driver has taken what it needs by then).
   */
  public void sendProbe(SendListener listener, byte[] buffer) {
    MessageHeader.write(buffer, MessageHeader.KIND_PROBE, runId, producerId, -1, clock.now());
    if (headerInMetadata) {
      producer.send(keys.next(), buffer, bodies[0], -1, listener);
    } else {
      producer.send(keys.next(), buffer, -1, listener);
    }
  }

  /**
   * A buffer for {@link #sendProbe(SendListener, byte[])}: a body of the worker's pool, or the
   * header alone when the header travels in metadata.
   */
  public byte[] probeBuffer() {
    return headerInMetadata ? new byte[MessageHeader.SIZE] : bodies[0].clone();
  }

  @Override
  public void sendCompleted(long sequence, Throwable failure) {
    sendCompleted(sequence, UNKNOWN_PARTITION, failure);
  }

  @Override
  public void sendCompleted(long sequence, int partition, Throwable failure) {
    boolean onLoop = Thread.currentThread() == loopThread;
    EventRing ring = onLoop ? loopRing : completionRings.get();
    long completedAt = ring.deferring() ? 0 : clock.now();
    long intended = onLoop ? intendedTimeOnLoop(sequence) : schedule.intendedTime(sequence);
    long sentAt = inFlight.sentAt(sequence);
    if (failure != null) {
      stats.noteSendFailure(failure);
      ring.sendFailed(localIndex, sequence, partition, intended, sentAt, completedAt);
      return;
    }
    ring.acknowledged(localIndex, sequence, partition, intended, sentAt, completedAt);
  }

  /** When message {@code sequence} was due on this producer's schedule. */
  public long intendedTime(long sequence) {
    return schedule.intendedTime(sequence);
  }

  public int producerId() {
    return producerId;
  }

  public BenchmarkProducer producer() {
    return producer;
  }
}
