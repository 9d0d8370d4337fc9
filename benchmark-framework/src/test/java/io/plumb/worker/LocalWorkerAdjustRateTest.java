package io.plumb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import io.plumb.load.Pacing;
import io.plumb.load.WorkerClock;
import io.plumb.loopback.LoopbackDriver;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import io.plumb.workload.KeyDistributorType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A rate change mid-load on the loopback driver, two producers on two producer threads. */
@Tag("host-timing")
class LocalWorkerAdjustRateTest {
  private static final double OLD_RATE = 500;
  private static final double NEW_RATE = 2_500;
  private static final int PRODUCERS = 2;

  private final WorkerClock clock = new WorkerClock();
  private final PeriodStats.Builder whole = new PeriodStats.Builder();

  @Test
  void producersFollowTheNewRateAndNothingIsLostOrRepeated() throws Exception {
    LocalWorker worker = new LocalWorker(PRODUCERS, clock);
    try {
      String yaml = "name: Loopback\ndriverClass: " + LoopbackDriver.class.getName() + "\n";
      worker.initializeDriver(new DriverSetup("loopback.yaml", yaml, Map.of()), 11);
      worker.createTopics(List.of(new TopicSpec("rate-topic", 2)));
      worker.createConsumers(List.of(new ConsumerSpec("rate-topic", "sub")));
      worker.createProducers(
          List.of(new ProducerSpec(0, "rate-topic"), new ProducerSpec(1, "rate-topic")),
          new MessageSpec(100, KeyDistributorType.NO_KEY, List.of(new byte[100]), false));
      worker.takePeriod();
      worker.startLoad(new LoadSpec(OLD_RATE, 0, Pacing.EFFICIENT));
      awaitSent(worker, 100);

      worker.adjustRate(NEW_RATE);
      // Let the change reach both producer threads, then watch a window of about a second.
      awaitSent(worker, sent() + 500);
      Reading first = read(worker);
      awaitSent(worker, first.sent + (long) (NEW_RATE * PRODUCERS));
      Reading second = read(worker);

      // Due on the schedule (sent plus lag) over the window: the new rate, to within the
      // uncertainty of when each reading was taken and two messages per producer of rounding and
      // read order.
      long due = second.sent + second.lag - first.sent - first.lag;
      double newPerNano = NEW_RATE * PRODUCERS / 1e9;
      long fewest = (long) Math.floor(newPerNano * (second.before - first.after)) - 2 * PRODUCERS;
      long most = (long) Math.ceil(newPerNano * (second.after - first.before)) + 2 * PRODUCERS;
      assertTrue(due >= fewest && due <= most, due + " due, expected " + fewest + ".." + most);
      // Actually sent: the new rate, not the old one (five times lower), give or take a producer
      // briefly behind on a busy host.
      long sent = second.sent - first.sent;
      double expected = newPerNano * (second.after - first.after);
      assertEquals(expected, sent, expected * 0.2, "sent in the window");

      worker.stopLoad();
      PeriodStats totals = awaitDelivered(worker);
      assertEquals(totals.sent(), totals.acknowledged());
      assertEquals(totals.sent(), totals.received(), "every message received");
      assertEquals(0, totals.duplicates());
      assertEquals(0, totals.failed());
      // A message whose intended time had moved past its receipt would show here.
      assertEquals(0, totals.negativeEndToEnd());
      Totals balance = worker.totals();
      long acked =
          balance.ackedByProducer().values().stream().mapToLong(SequenceRanges::size).sum();
      long distinct =
          balance.receivedBySubscription().values().stream()
              .flatMap(byProducer -> byProducer.values().stream())
              .mapToLong(SequenceRanges::size)
              .sum();
      assertEquals(0, balance.duplicatesAcrossWorkers());
      assertEquals(totals.sent(), acked);
      assertEquals(acked, distinct, "none lost");
    } finally {
      worker.closeClients(List.of());
      worker.close();
    }
  }

  @Test
  void aRateThatIsNotPositiveIsOneLine() {
    LocalWorker worker = new LocalWorker(1, clock);
    for (double rate : new double[] {0, -5, Double.NaN, Double.POSITIVE_INFINITY}) {
      BadInputException e = assertThrows(BadInputException.class, () -> worker.adjustRate(rate));
      assertTrue(e.getMessage().contains("rate per producer"), e.getMessage());
      assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }
    // Without load (a worker with only consumers) a valid rate changes nothing.
    worker.adjustRate(100);
  }

  /** Sent so far and schedule lag, with the clock read just before and after. */
  private record Reading(long before, long sent, long lag, long after) {}

  private Reading read(LocalWorker worker) {
    long before = clock.now();
    // Lag first, then sent: takePeriod reads the producers' sent counters first thing, so the two
    // describe nearly one instant. The other way round, the period's histogram harvest sat between
    // them, and a producer catching up during it (on a busy host) counted its catch-up as messages
    // due in the window: "5016 due, expected 4996..5008" in one CI run.
    long lag = worker.scheduleLag();
    long sent = addPeriod(worker).sent();
    return new Reading(before, sent, lag, clock.now());
  }

  private long sent() {
    return whole.build().sent();
  }

  /** Adds the worker's latest period to the run's; returns the run's totals so far. */
  private PeriodStats addPeriod(LocalWorker worker) {
    whole.add(worker.takePeriod());
    return whole.build();
  }

  private void awaitSent(LocalWorker worker, long target) throws TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (addPeriod(worker).sent() < target) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("sent " + sent() + " of " + target + " within 20 s");
      }
      LockSupport.parkNanos(5_000_000);
    }
  }

  private PeriodStats awaitDelivered(LocalWorker worker) throws TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      PeriodStats totals = addPeriod(worker);
      if (totals.received() >= totals.sent() && totals.acknowledged() >= totals.sent()) {
        return totals;
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("received " + totals.received() + " of " + totals.sent());
      }
      LockSupport.parkNanos(5_000_000);
    }
  }
}
