package io.plumb.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.input.BadInputException;
import io.plumb.load.WorkerClock;
import io.plumb.resources.ResourceSource;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which path of a {@link WorkerServer} goes to which handler: every call of {@link
 * io.plumb.worker.Worker} under {@code /worker/<call>}, plus {@code /clock} and {@code /lease}.
 * Each handler reads its JSON request body and returns what the server answers as JSON.
 */
final class WorkerRoutes {
  private static final ObjectMapper JSON = WireJson.MAPPER;

  private final Map<String, Call> calls = new HashMap<>();

  @FunctionalInterface
  interface Call {
    /** The answer to {@code body}, sent by the coordinator {@code from} identifies. */
    Object handle(byte[] body, String from) throws IOException;
  }

  WorkerRoutes(
      WorkerClock clock,
      Duration leaseTimeout,
      ResourceSource resources,
      WorkerMetrics metrics,
      HostedRun run) {
    calls.put("/clock", (body, from) -> new WireMessages.Clock(clock.now()));
    calls.put("/lease", (body, from) -> Map.of("leaseSeconds", leaseTimeout.toSeconds()));
    // Read whether or not a run is on: the coordinator samples from its measured phase's start.
    calls.put("/worker/resources", (body, from) -> resources.read());
    calls.put(
        "/worker/initialize",
        (body, from) -> run.initialize(read(body, WireMessages.Initialize.class), from));
    calls.put(
        "/worker/clock-corrections",
        (body, from) -> {
          List<Long> slots = read(body, WireMessages.Corrections.class).nanosBySlot();
          return run.withWorker(from, w -> w.applyClockCorrections(ClockCorrections.bySlot(slots)));
        });
    calls.put(
        "/worker/create-topics",
        (body, from) ->
            run.answer(from, w -> w.createTopics(read(body, WireMessages.Topics.class).topics())));
    calls.put(
        "/worker/create-consumers",
        (body, from) ->
            run.answer(
                from,
                w -> w.createConsumers(read(body, WireMessages.Consumers.class).consumers())));
    calls.put(
        "/worker/create-producers",
        (body, from) -> {
          WireMessages.Producers request = read(body, WireMessages.Producers.class);
          return run.withWorker(
              from, w -> w.createProducers(request.producers(), request.messages()));
        });
    calls.put("/worker/send-probes", (body, from) -> run.withWorker(from, LocalWorker::sendProbes));
    calls.put(
        "/worker/probes-received", (body, from) -> run.answer(from, LocalWorker::probesReceived));
    calls.put(
        "/worker/start-load",
        (body, from) -> {
          LoadSpec load = read(body, LoadSpec.class);
          return run.withWorker(from, w -> w.startLoad(load));
        });
    calls.put(
        "/worker/adjust-rate",
        (body, from) -> {
          double rate = read(body, WireMessages.Rate.class).ratePerProducer();
          return run.withWorker(from, w -> w.adjustRate(rate));
        });
    calls.put(
        "/worker/pause-consumers",
        (body, from) -> run.withWorker(from, LocalWorker::pauseConsumers));
    calls.put(
        "/worker/resume-consumers",
        (body, from) -> run.withWorker(from, LocalWorker::resumeConsumers));
    calls.put(
        "/worker/take-period",
        (body, from) -> {
          PeriodStats period = run.answer(from, LocalWorker::takePeriod);
          metrics.record(period);
          return period;
        });
    calls.put(
        "/worker/schedule-lag",
        (body, from) -> new WireMessages.Count(run.answer(from, LocalWorker::scheduleLag)));
    calls.put("/worker/stop-load", (body, from) -> run.withWorker(from, LocalWorker::stopLoad));
    calls.put(
        "/worker/totals",
        (body, from) ->
            new WireMessages.EncodedTotals(
                TotalsCodec.encode(run.answer(from, LocalWorker::totals))));
    calls.put(
        "/worker/first-errors",
        (body, from) -> new WireMessages.Errors(run.answer(from, LocalWorker::firstErrors)));
    calls.put(
        "/worker/close-clients",
        (body, from) -> {
          List<String> topics = read(body, WireMessages.CloseClients.class).topicsToDelete();
          return run.withWorker(from, w -> w.closeClients(topics));
        });
    calls.put(
        "/worker/close",
        (body, from) -> {
          run.close(from);
          return Map.of();
        });
  }

  /** The handler of {@code path}; null when there is none. */
  Call find(String path) {
    return calls.get(path);
  }

  private static <T> T read(byte[] body, Class<T> type) {
    try {
      return JSON.readValue(body, type);
    } catch (IOException e) {
      throw new BadInputException(
          "malformed request: " + e.getMessage().lines().findFirst().orElse(""));
    }
  }
}
