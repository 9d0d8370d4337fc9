package io.plumb.remote;

import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import java.util.List;

/**
 * Request and response bodies of the worker control API that are not already plain value types in
 * {@link io.plumb.worker.WorkerSpecs} (a period's {@link io.plumb.stats.PeriodStats} travels as
 * itself, see {@link WireJson}). All travel as JSON.
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
}
