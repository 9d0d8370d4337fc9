package io.plumb.worker;

import io.plumb.load.LoadGenerator;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.ProducerThreadTimes;

/**
 * What a worker's generator did since the previous period: messages and bytes sent, time inside the
 * drivers' send(), and the producer threads' times. The generator keeps running totals; this keeps
 * what was reported, so each period gets the difference.
 */
final class SendTally {
  private long reportedSent;
  private long reportedNanosInSend;
  private ProducerThreadTimes reportedThreadTimes = ProducerThreadTimes.NONE;

  /** Adds to {@code period} what {@code generator} (null before the load) did since last time. */
  void addTo(PeriodStats.Builder period, LoadGenerator generator, int messageSize) {
    if (generator == null) {
      return;
    }
    long sent = generator.sent();
    long inSend = generator.nanosInSend();
    period.addSent(
        sent - reportedSent, (sent - reportedSent) * messageSize, inSend - reportedNanosInSend);
    reportedSent = sent;
    reportedNanosInSend = inSend;
    ProducerThreadTimes threads = generator.threadTimes();
    period.addProducerThreads(threads.since(reportedThreadTimes));
    reportedThreadTimes = threads;
  }
}
