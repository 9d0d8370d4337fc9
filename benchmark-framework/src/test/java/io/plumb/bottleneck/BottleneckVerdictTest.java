package io.plumb.bottleneck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.stats.ProducerThreadTimes;
import org.junit.jupiter.api.Test;

/** The rules of {@link BottleneckVerdict} on given evidence. */
class BottleneckVerdictTest {
  private static final long MS = 1_000_000;
  private static final long S = 1_000_000_000;

  /** Ten seconds of producer-thread time, split as given (in tenths of a second). */
  private static ThreadEvidence threads(long send, long cpu, long runDelay) {
    return new ThreadEvidence(
        10 * S, send * S / 10, cpu * S / 10, runDelay < 0 ? -1 : runDelay * S / 10);
  }

  private static ScheduleEvidence evidence(
      double sent, double acknowledged, long lag, long delayP50, ThreadEvidence threads) {
    return new ScheduleEvidence(
        10_000, sent, acknowledged, lag, delayP50, 2 * delayP50, threads, 0.97, 0.08);
  }

  private static BottleneckVerdict behind(ThreadEvidence threads) {
    return BottleneckVerdict.judge(evidence(8_000, 8_000, 20_000, 80 * MS, threads));
  }

  @Test
  void producersOnScheduleKeptIt() {
    BottleneckVerdict verdict =
        BottleneckVerdict.judge(evidence(9_950, 9_950, 5, MS / 10, threads(95, 2, 1)));
    assertEquals(BottleneckVerdict.Kind.KEPT_SCHEDULE, verdict.kind(), verdict.reason());
  }

  @Test
  void aShortCountThatCaughtUpIsNotFallingBehind() {
    // 3% short, but only 10 messages behind at the end: a thread descheduled as the period closed.
    BottleneckVerdict verdict =
        BottleneckVerdict.judge(evidence(9_700, 9_700, 10, MS / 10, threads(95, 2, 1)));
    assertEquals(BottleneckVerdict.Kind.KEPT_SCHEDULE, verdict.kind(), verdict.reason());
  }

  @Test
  void lateSendsAboveTheTargetAreNamedAsCatchingUpNotAsAShortfall() {
    // Producers that began the measurement 2 s behind sent twice the rate while they caught up:
    // the sends were late (p50 1 s), the rate was no shortfall. (As seen on a crowded host: the
    // threads' time points both ways.)
    BottleneckVerdict verdict =
        BottleneckVerdict.judge(evidence(19_640, 19_640, 0, S, threads(20, 10, 24)));
    assertEquals(BottleneckVerdict.Kind.UNDECIDED, verdict.kind(), verdict.reason());
    assertTrue(
        verdict
            .reason()
            .startsWith(
                "producers sent 19640 msg/s, 96.4% above the target of 10000 msg/s (catching up with"
                    + " a schedule they were behind), 0 messages behind at the end, send delay p50"
                    + " 1000.000 ms"),
        verdict.reason());
    assertFalse(verdict.reason().contains("below"), verdict.reason());
  }

  @Test
  void lateSendsAtTheTargetRateNameTheTargetAlone() {
    BottleneckVerdict verdict =
        BottleneckVerdict.judge(evidence(10_050, 10_050, 0, S, threads(20, 10, 24)));
    assertTrue(
        verdict.reason().startsWith("producers sent 10050 msg/s, the target of 10000 msg/s, 0"),
        verdict.reason());
  }

  @Test
  void threadsThatWaitedForACoreAreGeneratorBoundAndTheReasonNamesTheEvidence() {
    // Ran 4.8 s, waited 5.2 s for a core, 0.3 s inside send() (all of it on a core).
    BottleneckVerdict verdict = behind(threads(3, 48, 52));
    assertEquals(BottleneckVerdict.Kind.GENERATOR_BOUND, verdict.kind(), verdict.reason());
    assertTrue(
        verdict
            .reason()
            .contains(
                "generator-bound: producer threads got 48% of the CPU they asked for (ran 48%, waited for a core 52% of their time); send() blocked 0% of the time (inside send() 3%)"),
        verdict.reason());
    assertTrue(verdict.reason().contains("the worker used 97% of the host's CPU"));
    assertTrue(verdict.reason().contains("steal 8.0%"), verdict.reason());
    assertEquals(48.0, verdict.figures().get("producerThreadCpuGotOfAskedPercent"), 1e-9);
    assertEquals(0.0, verdict.figures().get("producerThreadBlockedInSendPercent"), 1e-9);
  }

  @Test
  void threadsBlockedInsideSendAreTheBrokerPushingBack() {
    // 9.5 s inside send(), of which 0.4 s ran and 0.2 s waited for a core: 9.4 s blocked.
    BottleneckVerdict verdict = behind(threads(95, 4, 2));
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, verdict.kind(), verdict.reason());
    assertTrue(verdict.reason().contains("send() blocked 94% of the time"), verdict.reason());
    assertTrue(verdict.reason().contains("got 67% of the CPU they asked for"), verdict.reason());
  }

  @Test
  void threadsThatRanAllAlongAreGeneratorBoundEvenInsideSend() {
    // A client that burns CPU inside send() is this host's limit, not the broker's.
    BottleneckVerdict verdict = behind(threads(70, 92, 3));
    assertEquals(BottleneckVerdict.Kind.GENERATOR_BOUND, verdict.kind(), verdict.reason());
  }

  @Test
  void waitingAndBlockingWithinAFactorOfTwoIsUndecided() {
    BottleneckVerdict verdict = behind(threads(40, 30, 35));
    assertEquals(BottleneckVerdict.Kind.UNDECIDED, verdict.kind(), verdict.reason());
    assertTrue(verdict.reason().contains("undecided: producer threads got"), verdict.reason());
    // Just past the factor of two, either way, it decides.
    assertEquals(BottleneckVerdict.Kind.GENERATOR_BOUND, behind(threads(15, 15, 70)).kind());
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, behind(threads(60, 15, 25)).kind());
  }

  @Test
  void slowAcknowledgementsAreTheBrokerUnlessTheThreadsSayGeneratorBound() {
    BottleneckVerdict slowAcks =
        BottleneckVerdict.judge(evidence(8_000, 5_000, 20_000, 80 * MS, threads(10, 50, 5)));
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, slowAcks.kind(), slowAcks.reason());
    assertTrue(slowAcks.reason().contains("acknowledged only 5000 msg/s of the 8000 sent"));
    BottleneckVerdict starved =
        BottleneckVerdict.judge(evidence(8_000, 5_000, 20_000, 80 * MS, threads(5, 40, 60)));
    assertEquals(BottleneckVerdict.Kind.UNDECIDED, starved.kind(), starved.reason());
  }

  @Test
  void slowAcknowledgementsFromThreadsThatRanAllAlongAreUndecided() {
    // Ran 9.5 s of 10, waited 0.1 s for a core, send() blocked them 1%: the threads were CPU-bound,
    // and busy producer threads can starve the client's I/O thread, which slows acknowledgements.
    ThreadEvidence cpuBound = new ThreadEvidence(10 * S, S / 10, 95 * S / 10, S / 10);
    assertEquals(BottleneckVerdict.Kind.GENERATOR_BOUND, BottleneckVerdict.threadsSay(cpuBound));
    BottleneckVerdict verdict =
        BottleneckVerdict.judge(evidence(8_000, 7_500, 20_000, 80 * MS, cpuBound));
    assertEquals(BottleneckVerdict.Kind.UNDECIDED, verdict.kind(), verdict.reason());
    assertTrue(
        verdict.reason().contains("undecided: the broker acknowledged only 7500 msg/s of the 8000"),
        verdict.reason());
    // A thread that waited for a core more than twice as long as send() blocked it, under the
    // starvation share: still the threads' own time says generator-bound.
    assertEquals(
        BottleneckVerdict.Kind.UNDECIDED,
        BottleneckVerdict.judge(evidence(8_000, 7_500, 20_000, 80 * MS, threads(5, 70, 18)))
            .kind());
  }

  @Test
  void withoutRunQueueTimeOffCpuTimeInsideSendCannotBeToldApart() {
    // Off a core 60% of the time, none of it inside send(): not the driver.
    BottleneckVerdict outside = behind(threads(5, 40, -1));
    assertEquals(BottleneckVerdict.Kind.GENERATOR_BOUND, outside.kind(), outside.reason());
    assertTrue(
        outside.reason().contains("this host does not report time waiting for a core"),
        outside.reason());
    // Off a core 60% of the time, all inside send(): waiting or blocked, no one can say.
    BottleneckVerdict inside = behind(threads(90, 40, -1));
    assertEquals(BottleneckVerdict.Kind.UNDECIDED, inside.kind(), inside.reason());
  }

  @Test
  void theHostsCpuPressureIsQuotedButDoesNotDecide() {
    // Threads blocked in send() on a host where some task waited for a CPU 85% of the time: the
    // pressure is other processes', the producer threads themselves hardly waited.
    ProducerThreadTimes times =
        new ProducerThreadTimes(10 * S, 4 * S / 10, 2 * S / 10, 10 * S, 85 * S / 10);
    BottleneckVerdict verdict = behind(ThreadEvidence.of(times, 95 * S / 10));
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, verdict.kind(), verdict.reason());
    assertTrue(
        verdict.reason().contains("; on the host some task waited for a CPU 85% of the time"),
        verdict.reason());
    assertEquals(85.0, verdict.figures().get("hostCpuPressureSomePercent"), 1e-9);
  }

  @Test
  void withoutThreadTimesTheVerdictSaysSo() {
    BottleneckVerdict verdict = behind(ThreadEvidence.NONE);
    assertEquals(BottleneckVerdict.Kind.UNDECIDED, verdict.kind());
    assertTrue(verdict.reason().contains("no producer thread times were measured"));
    assertFalse(verdict.figures().containsKey("producerThreadOnCpuPercent"));
  }
}
