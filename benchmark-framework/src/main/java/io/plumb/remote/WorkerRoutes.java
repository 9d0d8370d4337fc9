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
    Object handle(byte[] body) throws IOException;
  }

  WorkerRoutes(
      WorkerClock clock,
      Duration leaseTimeout,
      ResourceSource resources,
      WorkerMetrics metrics,
      HostedRun run) {
    calls.put("/clock", body -> new WireMessages.Clock(clock.now()));
    calls.put("/lease", body -> Map.of("leaseSeconds", leaseTimeout.toSeconds()));
    // Read whether or not a run is on: the coordinator samples from its measured phase's start.
    calls.put("/worker/resources", body -> resources.read());
    calls.put(
        "/worker/initialize", body -> run.initialize(read(body, WireMessages.Initialize.class)));
    calls.put(
        "/worker/clock-corrections",
        body -> {
          List<Long> slots = read(body, WireMessages.Corrections.class).nanosBySlot();
          return run.withWorker(w -> w.applyClockCorrections(ClockCorrections.bySlot(slots)));
        });
    calls.put(
        "/worker/create-topics",
        body -> run.answer(w -> w.createTopics(read(body, WireMessages.Topics.class).topics())));
    calls.put(
        "/worker/create-consumers",
        body ->
            run.answer(
                w -> w.createConsumers(read(body, WireMessages.Consumers.class).consumers())));
    calls.put(
        "/worker/create-producers",
        body -> {
          WireMessages.Producers request = read(body, WireMessages.Producers.class);
          return run.withWorker(w -> w.createProducers(request.producers(), request.messages()));
        });
    calls.put("/worker/send-probes", body -> run.withWorker(LocalWorker::sendProbes));
    calls.put("/worker/probes-received", body -> run.answer(LocalWorker::probesReceived));
    calls.put(
        "/worker/start-load",
        body -> {
          LoadSpec load = read(body, LoadSpec.class);
          return run.withWorker(w -> w.startLoad(load));
        });
    calls.put(
        "/worker/adjust-rate",
        body -> {
          double rate = read(body, WireMessages.Rate.class).ratePerProducer();
          return run.withWorker(w -> w.adjustRate(rate));
        });
    calls.put("/worker/pause-consumers", body -> run.withWorker(LocalWorker::pauseConsumers));
    calls.put("/worker/resume-consumers", body -> run.withWorker(LocalWorker::resumeConsumers));
    calls.put(
        "/worker/take-period",
        body -> {
          PeriodStats period = run.answer(LocalWorker::takePeriod);
          metrics.record(period);
          return period;
        });
    calls.put(
        "/worker/schedule-lag",
        body -> new WireMessages.Count(run.answer(LocalWorker::scheduleLag)));
    calls.put("/worker/stop-load", body -> run.withWorker(LocalWorker::stopLoad));
    calls.put(
        "/worker/totals",
        body ->
            new WireMessages.EncodedTotals(TotalsCodec.encode(run.answer(LocalWorker::totals))));
    calls.put(
        "/worker/first-errors",
        body -> new WireMessages.Errors(run.answer(LocalWorker::firstErrors)));
    calls.put(
        "/worker/close-clients",
        body -> {
          List<String> topics = read(body, WireMessages.CloseClients.class).topicsToDelete();
          return run.withWorker(w -> w.closeClients(topics));
        });
    calls.put(
        "/worker/close",
        body -> {
          run.close();
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
