package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.stats.PublishRecorder;
import io.plumb.stats.PublishTimeline;
import io.plumb.stats.SendOutages;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Unavailability per partition and per producer from synthetic completions: one send a millisecond,
 * acknowledged 2 ms after its actual send unless the test stalls it; a fault at 10 s.
 */
class UnavailabilityAnalysisTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long MS = 1_000_000L;
  private static final long START = 1_000 * SECOND;
  private static final long FAULT = START + 10 * SECOND;
  private static final double RESOLUTION = SendOutages.FINEST_SLICE_NANOS / 1e9;

  private final FaultSpec kill = TestKills.leaderAtTenSeconds();
  private final FaultPlan plan = TestKills.plan(kill);

  private final PublishTimeline timeline = new PublishTimeline(SECOND);
  private final SendOutages outages = timeline.outages();

  UnavailabilityAnalysisTest() {
    outages.nameProducers(0, List.of("t", "t"), new int[] {40, 41});
  }

  @Test
  void aStalledPartitionIsTheWorstAndTheOnlyOneAffectedWhileItsNeighbourAcknowledges() {
    long resumed = FAULT + 3 * SECOND;
    for (long t = START; t < START + 20 * SECOND; t += MS) {
      int partition = (int) ((t / MS) % 2);
      boolean stalled = partition == 1 && t >= FAULT && t < resumed;
      outages.acknowledged(0, partition, t, t, stalled ? resumed + (t - FAULT) / 1000 : t + 2 * MS);
    }

    Unavailability figures = analyse();

    assertEquals(3.0, figures.worstPartitionSeconds(), RESOLUTION, figures.toString());
    assertEquals("t/1", figures.worstPartition());
    assertEquals(1, figures.partitionsAffected(), figures.toString());
    assertTrue(figures.partitionsAvailableAgain());
    assertTrue(
        figures.worstProducerSeconds() < 0.01,
        "partition 0's acknowledgements kept the producer available: " + figures);
    assertEquals(RESOLUTION, figures.affectedAboveSeconds(), 1e-9, "2 ms service is below it");
  }

  @Test
  void aGeneratorThatFellBehindIsNotBrokerDowntime() {
    // From the fault on, the generator sends nothing for 3 s, then catches up: every message
    // goes out late (intended times stay on schedule), and each is acknowledged 2 ms after it
    // actually went out.
    long behindUntil = FAULT + 3 * SECOND;
    long actual = START;
    for (long intended = START; intended < START + 20 * SECOND; intended += MS) {
      actual =
          intended < FAULT ? intended : Math.max(intended, Math.max(behindUntil, actual + MS / 4));
      int partition = (int) ((intended / MS) % 2);
      outages.acknowledged(0, partition, intended, actual, actual + 2 * MS);
    }

    Unavailability figures = analyse();

    assertEquals(0, figures.partitionsAffected(), figures.toString());
    assertTrue(figures.worstPartitionSeconds() <= RESOLUTION, figures.toString());
    assertTrue(figures.worstProducerSeconds() <= RESOLUTION, figures.toString());
  }

  @Test
  void failedSendsEndNothingAndCountForTheProducerWhenTheirPartitionIsUnknown() {
    // Producer 0 sends to partition 0; its sends fail (the client named the partition) for
    // 2 s. Producer 1's sends fail before any partition is chosen for 400 ms, less than the
    // plan's 1 s stall limit, which still shows with its length.
    for (long t = START; t < START + 20 * SECOND; t += MS) {
      if (t >= FAULT && t < FAULT + 2 * SECOND) {
        outages.failed(0, 0, t, t, t + 5 * MS);
      } else {
        outages.acknowledged(0, 0, t, t, t + 2 * MS);
      }
      if (t >= FAULT && t < FAULT + 400 * MS) {
        outages.failed(1, -1, t, PublishRecorder.UNKNOWN, t + 5 * MS);
      } else {
        outages.acknowledged(1, 1, t, t, t + 2 * MS);
      }
    }

    Unavailability figures = analyse();

    assertEquals(2.0, figures.worstPartitionSeconds(), RESOLUTION, figures.toString());
    assertEquals("t/0", figures.worstPartition());
    assertEquals(1, figures.partitionsAffected(), "partition 1 saw only producer 1's successes");
    assertEquals(2.0, figures.worstProducerSeconds(), RESOLUTION, figures.toString());
    assertEquals("40", figures.worstProducer());
  }

  @Test
  void anOutageShorterThanTheStallLimitIsReportedWithItsLength() {
    for (long t = START; t < START + 20 * SECOND; t += MS) {
      boolean stalled = t >= FAULT && t < FAULT + 300 * MS;
      outages.acknowledged(0, 0, t, t, stalled ? FAULT + 300 * MS : t + 2 * MS);
    }

    Unavailability figures = analyse();

    assertEquals(0.3, figures.worstPartitionSeconds(), RESOLUTION, figures.toString());
    assertEquals(1, figures.partitionsAffected());
  }

  @Test
  void warmUpsSlowFirstSendsDoNotRaiseTheBarForPartitionsAffected() {
    // Warm-up: the first second's sends take 2 s (connections, metadata); measured from START.
    for (long t = START - 5 * SECOND; t < START - 4 * SECOND; t += MS) {
      outages.acknowledged(0, 0, t, t, t + 2 * SECOND);
    }
    for (long t = START - 2 * SECOND; t < START + 20 * SECOND; t += MS) {
      boolean stalled = t >= FAULT && t < FAULT + 300 * MS;
      outages.acknowledged(0, 0, t, t, stalled ? FAULT + 300 * MS : t + 2 * MS);
    }

    Unavailability figures = analyse();

    assertEquals(RESOLUTION, figures.affectedAboveSeconds(), 1e-9, figures.toString());
    assertEquals(1, figures.partitionsAffected(), figures.toString());
  }

  @Test
  void aPartitionThatNeverAcknowledgesAgainIsOpenToTheEndAndGoodputShowsTheGap() {
    for (long t = START; t < START + 20 * SECOND; t += MS) {
      int partition = (int) ((t / MS) % 2);
      if (partition == 0 || t < FAULT) {
        outages.acknowledged(0, partition, t, t, t + 2 * MS);
      } else {
        outages.failed(0, partition, t, t, t + 5 * MS);
      }
    }

    Unavailability figures = analyse();

    assertFalse(figures.partitionsAvailableAgain());
    assertEquals("t/1", figures.worstPartition());
    assertEquals(10.0, figures.worstPartitionSeconds(), 0.01, figures.toString());
    Unavailability.Goodput goodput = figures.goodput();
    assertEquals(0.1, goodput.sliceSeconds(), 1e-9);
    assertEquals(7.0, goodput.fromSeconds(), 0.1, "three seconds before the fault");
    List<Double> rates = goodput.acknowledgedPerSecond();
    assertEquals(1_000, rates.get(0), 10, "both partitions before the fault");
    assertEquals(500, rates.get(rates.size() - 2), 10, "half of them after it");
  }

  @Test
  void goodputShowsOnlySlicesTheLoadCoveredWhole() {
    // Load runs 20 s; from the fault on partition 1 takes sends and answers none of them until the
    // node is let go as the load stops, 300 ms after which their acknowledgements come all at once.
    // Goodput was half the rate while the fault lasted: no slice under load was worse than that.
    long loadEnd = START + 20 * SECOND;
    for (long t = START; t < loadEnd; t += MS) {
      int partition = (int) ((t / MS) % 2);
      boolean held = partition == 1 && t >= FAULT;
      outages.acknowledged(0, partition, t, t, held ? loadEnd + 300 * MS : t + 2 * MS);
    }
    List<FaultAnalysis.Period> periods = new java.util.ArrayList<>();
    for (long start = START; start < loadEnd; start += SECOND) {
      periods.add(
          new FaultAnalysis.Period(
              start,
              start + SECOND,
              new io.plumb.stats.PeriodCounts(1000, 1000, 0, 0, 0).withoutLatencies()));
    }
    FaultRecord record =
        new FaultRecord(kill, List.of("2"), "leader of partition 0", FAULT, loadEnd, null);

    Unavailability figures =
        FaultAnalysis.figures(plan, List.of(record), START, timeline.snapshot(), periods, 0, 0)
            .faults()
            .get(0)
            .unavailability();

    List<Double> rates = figures.goodput().acknowledgedPerSecond();
    double lowest = rates.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    assertEquals(500, lowest, 10, "the fault's own dip, not the load's end: " + rates);
  }

  @Test
  void anOutageThatOpensJustBeforeTheNextFaultIsThatFaultsAlone() {
    // Sends take 150 ms to be acknowledged. Fault 1 at 10 s stalls the partition for 2 s. Fault 2
    // at 15 s hits the sends of its last 210 ms in flight: no acknowledgement comes after 14.94 s
    // until 19 s, so the outage's window opens at the first send after 14.94 s, 60 ms before fault
    // 2, while fault 1's span still runs. It is fault 2's outage, not fault 1's.
    long second = FAULT + 5 * SECOND;
    for (long t = START; t < START + 25 * SECOND; t += MS) {
      long acknowledged = t + 150 * MS;
      if (t >= FAULT && t < FAULT + 2 * SECOND) {
        acknowledged = FAULT + 2 * SECOND;
      } else if (t >= second - 210 * MS && t < second + 4 * SECOND) {
        acknowledged = second + 4 * SECOND;
      }
      outages.acknowledged(0, 0, t, t, acknowledged);
    }
    SendOutages.Snapshot snapshot = outages.snapshot();

    Unavailability first =
        UnavailabilityAnalysis.of(
            snapshot, START, FAULT, second, FAULT, Long.MAX_VALUE, Long.MAX_VALUE);
    Unavailability next =
        UnavailabilityAnalysis.of(
            snapshot, START, second, Long.MAX_VALUE, FAULT, Long.MAX_VALUE, Long.MAX_VALUE);

    assertEquals(2.0, first.worstPartitionSeconds(), 0.2, first.toString());
    assertEquals(4.06, next.worstPartitionSeconds(), 0.05, next.toString());
  }

  @Test
  void slicesWidenToStayWithinTheirBudgetAndStillFindTheOutage() {
    SendOutages small = new SendOutages(2_000);
    small.nameProducers(0, List.of("t"), new int[] {1});
    long resumed = FAULT + 3 * SECOND;
    for (long t = START; t < START + 20 * SECOND; t += MS) {
      boolean stalled = t >= FAULT && t < resumed;
      small.acknowledged(0, 0, t, t, stalled ? resumed : t + 2 * MS);
    }
    SendOutages.Snapshot snapshot = small.snapshot();
    assertTrue(snapshot.sliceNanos() > SendOutages.FINEST_SLICE_NANOS, "widened");
    Unavailability figures =
        UnavailabilityAnalysis.of(
            snapshot, START, FAULT, Long.MAX_VALUE, FAULT, Long.MAX_VALUE, Long.MAX_VALUE);
    assertEquals(3.0, figures.worstPartitionSeconds(), snapshot.sliceNanos() / 1e9);
    assertEquals(snapshot.sliceNanos() / 1e9, figures.resolutionSeconds(), 1e-12);
  }

  private Unavailability analyse() {
    FaultRecord record =
        new FaultRecord(
            kill, List.of("2"), "leader of partition 0", FAULT, FAULT + 5 * SECOND, null);
    return FaultAnalysis.figures(plan, List.of(record), START, timeline.snapshot(), List.of(), 0, 0)
        .faults()
        .get(0)
        .unavailability();
  }
}
