package io.plumb.remote;

import io.plumb.stats.Histograms;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.ProducerThreadTimes;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import java.util.List;

/**
 * Request and response bodies of the worker control API that are not already plain value types in
 * {@link io.plumb.worker.WorkerSpecs}. All travel as JSON.
 */
final class WireMessages {
  private WireMessages() {}

  record Initialize(DriverSetup setup, int runId) {}

  record Topics(List<TopicSpec> topics) {}

  record Consumers(List<ConsumerSpec> consumers) {}

  record Producers(List<ProducerSpec> producers, MessageSpec messages) {}

  record Corrections(List<Long> nanosBySlot) {}

  record CloseClients(List<String> topicsToDelete) {}

  record Errors(List<String> errors) {}

  record Count(long value) {}

  record Rate(double ratePerProducer) {}

  /** A worker's clock reading, epoch nanoseconds. */
  record Clock(long nanos) {}

  /** {@link io.plumb.worker.WorkerSpecs.Totals} in {@link TotalsCodec}'s form (base64 in JSON). */
  record EncodedTotals(byte[] data) {}

  /** Why a request failed; {@code badInput} marks the user's mistake rather than the worker's. */
  record Failure(String error, boolean badInput) {}

  /** {@link PeriodStats} with its histograms in HdrHistogram's compressed encoding: lossless. */
  record Period(
      long sent,
      long sentBytes,
      long acknowledged,
      long failed,
      long untimedAcknowledgements,
      long received,
      long receivedBytes,
      long duplicates,
      long outOfOrder,
      long negativeEndToEnd,
      long foreign,
      long consumerErrors,
      long producerBlockedNanos,
      String publishLatency,
      String serviceTime,
      String sendDelay,
      String endToEndLatency,
      ProducerThreadTimes producerThreads) {

    static Period of(PeriodStats stats) {
      return new Period(
          stats.sent(),
          stats.sentBytes(),
          stats.acknowledged(),
          stats.failed(),
          stats.untimedAcknowledgements(),
          stats.received(),
          stats.receivedBytes(),
          stats.duplicates(),
          stats.outOfOrder(),
          stats.negativeEndToEnd(),
          stats.foreign(),
          stats.consumerErrors(),
          stats.producerBlockedNanos(),
          Histograms.encode(stats.publishLatency()),
          Histograms.encode(stats.serviceTime()),
          Histograms.encode(stats.sendDelay()),
          Histograms.encode(stats.endToEndLatency()),
          stats.producerThreads());
    }

    PeriodStats toStats() {
      return new PeriodStats(
          sent,
          sentBytes,
          acknowledged,
          failed,
          untimedAcknowledgements,
          received,
          receivedBytes,
          duplicates,
          outOfOrder,
          negativeEndToEnd,
          foreign,
          consumerErrors,
          producerBlockedNanos,
          Histograms.decode(publishLatency),
          Histograms.decode(serviceTime),
          Histograms.decode(sendDelay),
          Histograms.decode(endToEndLatency),
          producerThreads == null ? ProducerThreadTimes.NONE : producerThreads);
    }
  }
}
