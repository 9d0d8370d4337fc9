package io.plumb.load;

import io.plumb.driver.DaemonThreads;
import io.plumb.stats.ProducerThreadTimes;
import io.plumb.stats.StatsCollector;
import java.util.ArrayList;
import java.util.List;

/**
 * Spreads a worker's producers over one thread per core (or fewer, one per producer at most) and
 * starts them on staggered schedules, so producers of equal rate do not all fire at the same
 * instant.
 */
public final class LoadGenerator {
  private final List<ProducerLoop> loops = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final long createdNanos = System.nanoTime();
  private final long createdPressure = HostCpuPressure.someWaitNanos();

  /**
   * @param ratePerProducer messages per second for each producer
   * @param startNanos intended time of the first message, on {@code clock}
   * @param pacing how producer threads wait between sends
   */
  public LoadGenerator(
      List<ProducerTask> tasks,
      double ratePerProducer,
      long startNanos,
      int threadCount,
      Pacing pacing,
      WorkerClock clock,
      StatsCollector stats) {
    int loopsWanted = Math.max(1, Math.min(threadCount, tasks.size()));
    List<List<ProducerTask>> groups = new ArrayList<>();
    for (int i = 0; i < loopsWanted; i++) {
      groups.add(new ArrayList<>());
    }
    List<PayloadBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < loopsWanted; i++) {
      buffers.add(new PayloadBuffer());
    }
    double interval = 1e9 / ratePerProducer;
    for (int i = 0; i < tasks.size(); i++) {
      ProducerTask task = tasks.get(i);
      long phase = (long) (interval * i / tasks.size());
      task.start(
          new RateSchedule(startNanos + phase, interval),
          ratePerProducer,
          buffers.get(i % loopsWanted));
      groups.get(i % loopsWanted).add(task);
    }
    for (int i = 0; i < loopsWanted; i++) {
      ProducerLoop loop = new ProducerLoop(groups.get(i), clock, stats, pacing, loopsWanted);
      loops.add(loop);
      threads.add(DaemonThreads.named("plumb-producer-" + i).newThread(loop));
    }
  }

  public void start() {
    threads.forEach(Thread::start);
  }

  /**
   * Stops every loop and waits for its thread; sends already handed to drivers complete normally.
   */
  public void stop() throws InterruptedException {
    loops.forEach(ProducerLoop::stop);
    for (Thread thread : threads) {
      thread.join(30_000);
    }
  }

  /**
   * Every producer continues at {@code ratePerProducer} from its first message not yet due; the
   * producer threads switch between sends, and messages already due keep their intended times.
   */
  public void adjustRate(double ratePerProducer) {
    if (!(ratePerProducer > 0) || Double.isInfinite(ratePerProducer)) {
      throw new IllegalArgumentException("rate must be positive: " + ratePerProducer);
    }
    loops.forEach(loop -> loop.adjustRate(ratePerProducer));
  }

  public long sent() {
    long sum = 0;
    for (ProducerLoop loop : loops) {
      sum += loop.sent();
    }
    return sum;
  }

  /**
   * The producer threads' wall, CPU and run-queue time so far, summed, with the host's CPU pressure
   * since this generator was made.
   */
  public ProducerThreadTimes threadTimes() {
    ProducerThreadTimes sum = ProducerThreadTimes.NONE;
    for (ProducerLoop loop : loops) {
      sum = sum.plus(loop.threadTimes());
    }
    long pressure = HostCpuPressure.someWaitNanos();
    return sum.onHost(
        System.nanoTime() - createdNanos,
        pressure >= 0 && createdPressure >= 0 ? pressure - createdPressure : -1);
  }

  /**
   * Total nanoseconds producer threads spent inside drivers' send() calls (not in Plumb's own work
   * per message, nor waiting for the schedule).
   */
  public long nanosInSend() {
    long sum = 0;
    for (ProducerLoop loop : loops) {
      sum += loop.nanosInSend();
    }
    return sum;
  }

  /** Scheduled messages not yet sent by {@code time}, summed over producers. */
  public long lagBy(long time) {
    long sum = 0;
    for (ProducerLoop loop : loops) {
      sum += loop.lagBy(time);
    }
    return sum;
  }
}
