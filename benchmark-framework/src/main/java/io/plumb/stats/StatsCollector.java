package io.plumb.stats;

import io.plumb.driver.DaemonThreads;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The one thread per worker that turns what producers and consumers report into histograms and
 * counters. Every reporting thread gets its own {@link EventRing}; this thread drains them all and
 * is the only writer of the {@link PublishRecorder} and the {@link SubscriptionRecorder}s, so the
 * send and receive paths take no lock and share no written cache line.
 *
 * <p>Questions about the statistics (a period's figures, totals) also run on this thread, after it
 * has drained every event published before the question was asked: a period never misses a message
 * that completed before it ended.
 */
public final class StatsCollector implements AutoCloseable {
  /** A producer loop's ring: about 1.6 ms of events at 10M msg/s. */
  private static final int LOOP_RING_CAPACITY = 1 << 15;

  /** Any other reporting thread's (driver callbacks and consumers): 128 KB each. */
  private static final int RING_CAPACITY = 1 << 12;

  /** How often rings of threads that have ended are dropped. */
  private static final long PRUNE_EVERY_NANOS = 1_000_000_000L;

  /**
   * The wait after a pass that found little to do. Nobody waits on the collector except questions,
   * which wake it, and filling rings: a producer loop's ring holds 1.6 ms of events at 10 million
   * msg/s, another thread's 4 ms at a million events a second, so a ring that passes half full
   * wakes the collector, and a pass that found many events goes round again at once. Waking every 2
   * ms rather than after every message is what keeps the collector's CPU small at moderate rates:
   * each wake-up costs 10 to 30 us on a virtual machine.
   */
  private static final long PARK_NANOS = 2_000_000;

  /** A pass that drained this many events goes round again at once: the rings are filling. */
  private static final int BUSY_PASS_EVENTS = 512;

  private final ThreadLocal<EventRing> ringOfThread =
      ThreadLocal.withInitial(() -> newRing(RING_CAPACITY));
  private volatile EventRing[] rings = new EventRing[0];
  private final ConcurrentLinkedQueue<FutureTask<?>> questions = new ConcurrentLinkedQueue<>();
  private final AtomicReference<String> firstSendFailure = new AtomicReference<>();
  private final AtomicReference<String> firstConsumerError = new AtomicReference<>();
  // Counted before the collector adds them, so that a refusal is the caller's own exception.
  private final AtomicLong subscriptionsAdded = new AtomicLong();
  private final Thread thread;
  private volatile boolean stopping;
  private volatile boolean stopped;

  // Written and read on the collector's thread only (or by a caller once that thread has ended).
  private final PublishRecorder publish = new PublishRecorder(0);
  private SubscriptionRecorder[] subscriptions = new SubscriptionRecorder[0];
  private final ReceivePeriod receivePeriod = new ReceivePeriod();
  private final Sink sink = new Sink();

  public StatsCollector(String threadName) {
    thread = DaemonThreads.start(threadName, this::run);
  }

  /** The calling thread's ring, created on its first report. */
  public EventRing ring() {
    return ringOfThread.get();
  }

  /** A larger ring for the calling thread, which is a producer loop about to send. */
  public EventRing loopRing() {
    EventRing ring = newRing(LOOP_RING_CAPACITY);
    ringOfThread.set(ring);
    return ring;
  }

  /** Notes a send failure's text for the result; counting goes through the ring. */
  public void noteSendFailure(Throwable failure) {
    firstSendFailure.compareAndSet(null, String.valueOf(failure));
  }

  /** Notes a consumer error's text for the result; counting goes through the ring. */
  public void noteConsumerError(Throwable error) {
    firstConsumerError.compareAndSet(null, String.valueOf(error));
  }

  public String firstSendFailure() {
    return firstSendFailure.get();
  }

  public String firstConsumerError() {
    return firstConsumerError.get();
  }

  /**
   * Adds a subscription and returns its index for {@link EventRing#delivered}.
   *
   * @param clockCorrectionNanos added to end-to-end latencies to bring receive times onto the
   *     producers' clocks (zero when producers and consumers share a clock)
   */
  public int addSubscription(String topic, String subscription, long clockCorrectionNanos) {
    return addSubscription(topic, subscription, ClockCorrections.uniform(clockCorrectionNanos));
  }

  /**
   * Adds a subscription whose messages come from producers on several workers.
   *
   * @param clockCorrections added to end-to-end latencies to bring receive times onto each
   *     producer's clock ({@link ClockCorrections#NONE} when producers and consumers share one)
   */
  public int addSubscription(String topic, String subscription, ClockCorrections clockCorrections) {
    return addSubscriptions(List.of(topic), List.of(subscription), clockCorrections);
  }

  /**
   * Adds subscription {@code subscriptions.get(i)} of {@code topics.get(i)} for every i, in one
   * step, and returns the index of the first; the others follow it in order.
   */
  public int addSubscriptions(
      List<String> topics, List<String> subscriptions, ClockCorrections clockCorrections) {
    if (topics.size() != subscriptions.size()) {
      throw new IllegalArgumentException(topics.size() + " topics, " + subscriptions.size());
    }
    requireIndexes("subscriptions", subscriptionsAdded.addAndGet(topics.size()));
    return ask(
        () -> {
          int first = this.subscriptions.length;
          SubscriptionRecorder[] grown = Arrays.copyOf(this.subscriptions, first + topics.size());
          for (int i = 0; i < topics.size(); i++) {
            grown[first + i] =
                new SubscriptionRecorder(
                    topics.get(i), subscriptions.get(i), clockCorrections, receivePeriod);
          }
          this.subscriptions = grown;
          return first;
        });
  }

  /** Makes room for producers numbered below {@code producers} (worker-local indexes). */
  public void expectProducers(int producers) {
    requireIndexes("producers", producers);
    ask(
        () -> {
          publish.expectProducers(producers);
          return null;
        });
  }

  /**
   * Refuses more than {@link EventRing#MAX_INDEXES} of {@code what} on this worker, where an
   * event's index would wrap and credit one to another.
   */
  private static void requireIndexes(String what, long count) {
    if (count > EventRing.MAX_INDEXES) {
      throw new IllegalArgumentException(
          String.format(
              "this worker would hold %,d %s; one worker records at most %,d: spread them over"
                  + " more workers (--workers)",
              count, what, EventRing.MAX_INDEXES));
    }
  }

  /**
   * Keeps a {@link PublishTimeline} of sends from now on; {@code stallNanos} is the threshold
   * beyond which an acknowledgement counts as stalled.
   */
  public void keepTimeline(long stallNanos) {
    ask(
        () -> {
          publish.keepTimeline(stallNanos);
          return null;
        });
  }

  /**
   * Names the topic and id of producers from local index {@code first} on, so the publish timeline
   * can tell partitions of different topics apart (call after {@link #keepTimeline}).
   */
  public void nameProducers(int first, List<String> topics, int[] ids) {
    ask(
        () -> {
          publish.nameProducers(first, topics, ids);
          return null;
        });
  }

  /** Adds everything recorded since the previous call to {@code into}. */
  public void takePeriod(PeriodStats.Builder into) {
    ask(
        () -> {
          publish.takePeriod(into);
          receivePeriod.takePeriod(into);
          return null;
        });
  }

  /**
   * Adds everything recorded since the previous period to {@code into} and answers {@code question}
   * in the same pass over the recorders, so the period's counts and the answer's sequence sets
   * describe the same instant (the final count of a run cut short).
   */
  public <T> T takePeriodAndInspect(PeriodStats.Builder into, Inspection<T> question) {
    return ask(
        () -> {
          publish.takePeriod(into);
          receivePeriod.takePeriod(into);
          return question.answer(publish, subscriptions.clone());
        });
  }

  /** Runs {@code question} on the recorders once everything reported so far is recorded. */
  public <T> T inspect(Inspection<T> question) {
    return ask(() -> question.answer(publish, subscriptions.clone()));
  }

  /** How many rings the collector drains now (for tests). */
  int ringCount() {
    return rings.length;
  }

  /** A question about whole-run figures, answered on the collector's thread. */
  public interface Inspection<T> {
    T answer(PublishRecorder publish, SubscriptionRecorder[] subscriptions);
  }

  @Override
  public void close() {
    stopping = true;
    LockSupport.unpark(thread);
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private EventRing newRing(int capacity) {
    EventRing ring = new EventRing(capacity, Thread.currentThread(), () -> stopped, this::wakeUp);
    synchronized (this) {
      EventRing[] grown = Arrays.copyOf(rings, rings.length + 1);
      grown[rings.length] = ring;
      rings = grown;
    }
    return ring;
  }

  /** Ends the collector's wait between passes: a ring is filling faster than it drains them. */
  private void wakeUp() {
    LockSupport.unpark(thread);
  }

  private void run() {
    try {
      long nextPrune = System.nanoTime() + PRUNE_EVERY_NANOS;
      while (!stopping) {
        int drained = drainAll();
        if (System.nanoTime() > nextPrune) {
          pruneEndedThreads();
          nextPrune = System.nanoTime() + PRUNE_EVERY_NANOS;
        }
        FutureTask<?> question;
        while ((question = questions.poll()) != null) {
          drainAll();
          question.run();
        }
        if (drained < BUSY_PASS_EVENTS) {
          LockSupport.parkNanos(PARK_NANOS);
        }
      }
      drainAll();
      FutureTask<?> question;
      while ((question = questions.poll()) != null) {
        question.run();
      }
    } finally {
      stopped = true;
    }
  }

  /** Drops the drained rings of threads that have ended (a driver's short-lived threads). */
  private void pruneEndedThreads() {
    synchronized (this) {
      EventRing[] current = rings;
      EventRing[] kept =
          Arrays.stream(current)
              .filter(ring -> ring.ownerAlive() || ring.drainTo(sink) > 0)
              .toArray(EventRing[]::new);
      if (kept.length != current.length) {
        rings = kept;
      }
    }
  }

  private int drainAll() {
    int drained = 0;
    for (EventRing ring : rings) {
      drained += ring.drainTo(sink);
    }
    return drained;
  }

  private <T> T ask(Callable<T> task) {
    FutureTask<T> question = new FutureTask<>(task);
    if (thread.isAlive()) {
      questions.add(question);
      LockSupport.unpark(thread);
    } else {
      answerHere(question);
    }
    try {
      while (true) {
        try {
          return question.get(50, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          if (!thread.isAlive()) {
            answerHere(question);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading statistics", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("reading statistics failed: " + e.getCause(), e.getCause());
    }
  }

  /**
   * The collector has ended (the worker is closing): answer on the caller's thread, one at a time.
   */
  private synchronized void answerHere(FutureTask<?> question) {
    drainAll();
    question.run();
  }

  /** Where drained events go: the recorders, on the collector's thread. */
  private final class Sink implements EventSink {
    @Override
    public void acknowledged(
        int producer,
        int sequenceLow,
        int partition,
        long intended,
        long sentAt,
        long completedAt) {
      publish.acknowledged(producer, sequenceLow, partition, intended, sentAt, completedAt);
    }

    @Override
    public void sendFailed(
        int producer, int sequenceLow, int partition, long intended, long sentAt, long failedAt) {
      publish.failed(producer, sequenceLow, partition, intended, sentAt, failedAt);
    }

    @Override
    public void delivered(
        int subscription,
        int producerId,
        int length,
        long sequence,
        long latency,
        boolean afterLater) {
      subscriptions[subscription].delivered(producerId, length, sequence, latency, afterLater);
    }

    @Override
    public void consumerError(int subscription) {
      subscriptions[subscription].error();
    }

    @Override
    public void foreign(int subscription) {
      subscriptions[subscription].foreign();
    }

    @Override
    public void probe(int subscription) {
      subscriptions[subscription].probe();
    }
  }
}
