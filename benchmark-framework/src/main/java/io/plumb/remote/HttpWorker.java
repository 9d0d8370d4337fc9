package io.plumb.remote;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.input.BadInputException;
import io.plumb.input.UnreachableBrokerException;
import io.plumb.resources.Snapshot;
import io.plumb.stats.ClockCorrections;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.Worker;
import io.plumb.worker.WorkerException;
import io.plumb.worker.WorkerSpecs.ConsumerSpec;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.ProducerSpec;
import io.plumb.worker.WorkerSpecs.TopicSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;

/**
 * The coordinator's side of one remote worker: each {@link Worker} call becomes a POST to the
 * worker's {@code /worker/<call>}. Calls that set things up may take as long as the broker needs;
 * calls during load must answer within seconds, or the worker counts as gone.
 */
public final class HttpWorker implements Worker {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(4);
  private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(150);
  private static final Duration RUN_TIMEOUT = Duration.ofSeconds(6);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = WireJson.MAPPER;

  /**
   * Names the coordinator on every call, a random value of each client: a worker serves its run's
   * calls only from the coordinator that started it.
   */
  static final String COORDINATOR_HEADER = "Plumb-Coordinator";

  private final String coordinator = UUID.randomUUID().toString();
  private final URI base;
  private final Optional<String> token;
  private final SSLContext tls;
  private final HttpClient client;

  public HttpWorker(URI base, Optional<String> token, SSLContext tls) {
    this.base = base;
    this.token = token;
    this.tls = tls;
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .connectTimeout(CONNECT_TIMEOUT)
            .version(HttpClient.Version.HTTP_1_1);
    if (tls != null) {
      builder.sslContext(tls);
    }
    this.client = builder.build();
  }

  @Override
  public String name() {
    return base.toString();
  }

  /** This worker's clock, epoch nanoseconds: one round trip of an offset measurement. */
  public long clock() {
    return call("/clock", Map.of(), RUN_TIMEOUT, WireMessages.Clock.class).nanos();
  }

  /** A connection of its own for offset measurement, round trips without the HttpClient's. */
  ClockProbe clockProbe() {
    return new ClockProbe(base, token, tls, RUN_TIMEOUT);
  }

  /** Renews the coordinator's lease, without waiting; the future fails if the worker is gone. */
  public CompletableFuture<Void> renewLease(Duration timeout) {
    return client
        .sendAsync(request("/lease", "{}", timeout), HttpResponse.BodyHandlers.ofString())
        .thenAccept(response -> check(response, "/lease"));
  }

  @Override
  public DriverInfo initializeDriver(DriverSetup setup, int runId) {
    return call(
        "/worker/initialize",
        new WireMessages.Initialize(setup, runId),
        SETUP_TIMEOUT,
        DriverInfo.class);
  }

  @Override
  public void applyClockCorrections(ClockCorrections corrections) {
    call(
        "/worker/clock-corrections",
        new WireMessages.Corrections(corrections.nanosBySlot()),
        RUN_TIMEOUT,
        Map.class);
  }

  @Override
  public Map<String, String> createTopics(List<TopicSpec> topics) {
    return brokerFacts("/worker/create-topics", new WireMessages.Topics(topics));
  }

  @Override
  public Map<String, String> createConsumers(List<ConsumerSpec> consumers) {
    return brokerFacts("/worker/create-consumers", new WireMessages.Consumers(consumers));
  }

  /**
   * A setup call that answers with the driver's broker facts, as creating topics and consumers do.
   */
  private Map<String, String> brokerFacts(String path, Object body) {
    return call(path, body, SETUP_TIMEOUT, new TypeReference<Map<String, String>>() {});
  }

  @Override
  public void createProducers(List<ProducerSpec> producers, MessageSpec messages) {
    call(
        "/worker/create-producers",
        new WireMessages.Producers(producers, messages),
        SETUP_TIMEOUT,
        Map.class);
  }

  @Override
  public void sendProbes() {
    call("/worker/send-probes", Map.of(), RUN_TIMEOUT, Map.class);
  }

  @Override
  public Map<String, Long> probesReceived() {
    return call(
        "/worker/probes-received",
        Map.of(),
        RUN_TIMEOUT,
        new TypeReference<Map<String, Long>>() {});
  }

  @Override
  public void startLoad(LoadSpec load) {
    call("/worker/start-load", load, RUN_TIMEOUT, Map.class);
  }

  @Override
  public void adjustRate(double ratePerProducer) {
    call("/worker/adjust-rate", new WireMessages.Rate(ratePerProducer), RUN_TIMEOUT, Map.class);
  }

  @Override
  public void pauseConsumers() {
    call("/worker/pause-consumers", Map.of(), RUN_TIMEOUT, Map.class);
  }

  @Override
  public void resumeConsumers() {
    call("/worker/resume-consumers", Map.of(), RUN_TIMEOUT, Map.class);
  }

  @Override
  public PeriodStats takePeriod() {
    return call("/worker/take-period", Map.of(), RUN_TIMEOUT, PeriodStats.class);
  }

  /** This worker JVM's resource counters now, for the coordinator's resource sampling. */
  public Snapshot resources() {
    return call("/worker/resources", Map.of(), RUN_TIMEOUT, Snapshot.class);
  }

  @Override
  public long scheduleLag() {
    return call("/worker/schedule-lag", Map.of(), RUN_TIMEOUT, WireMessages.Count.class).value();
  }

  @Override
  public void stopLoad() {
    call("/worker/stop-load", Map.of(), STOP_TIMEOUT, Map.class);
  }

  @Override
  public Totals totals() {
    // The sequence sets of millions of producers take seconds to gather and send; a worker that
    // dies meanwhile is noticed by its lease, not by this call.
    byte[] encoded =
        call("/worker/totals", Map.of(), SETUP_TIMEOUT, WireMessages.EncodedTotals.class).data();
    try {
      return TotalsCodec.decode(encoded);
    } catch (IllegalArgumentException e) {
      throw new WorkerException(
          "worker " + base + " answered /worker/totals with malformed totals: " + e.getMessage(),
          e);
    }
  }

  @Override
  public List<String> firstErrors() {
    return call("/worker/first-errors", Map.of(), RUN_TIMEOUT, WireMessages.Errors.class).errors();
  }

  @Override
  public void closeClients(List<String> topicsToDelete) {
    call(
        "/worker/close-clients",
        new WireMessages.CloseClients(topicsToDelete),
        SETUP_TIMEOUT,
        Map.class);
  }

  @Override
  public void close() {
    call("/worker/close", Map.of(), STOP_TIMEOUT, Map.class);
  }

  private <T> T call(String path, Object body, Duration timeout, Class<T> type) {
    return call(path, body, timeout, JSON.constructType(type));
  }

  private <T> T call(String path, Object body, Duration timeout, TypeReference<T> type) {
    return call(path, body, timeout, JSON.constructType(type));
  }

  /** The answer parsed straight into its type, without a tree of plain values first. */
  private <T> T call(String path, Object body, Duration timeout, JavaType type) {
    String answer = call(path, body, timeout);
    try {
      return JSON.readValue(answer, type);
    } catch (IOException | IllegalArgumentException e) {
      throw new WorkerException(
          "worker " + base + " answered " + path + " with malformed JSON: " + e.getMessage(), e);
    }
  }

  /** The body of a successful answer; any other status becomes the matching exception. */
  private String call(String path, Object body, Duration timeout) {
    HttpResponse<String> response;
    try {
      response =
          client.send(
              request(path, JSON.writeValueAsString(body), timeout),
              HttpResponse.BodyHandlers.ofString());
    } catch (HttpTimeoutException e) {
      throw new WorkerException(
          "worker " + base + " did not answer " + path + " within " + seconds(timeout), e);
    } catch (IOException e) {
      throw new WorkerException("worker " + base + " cannot be reached: " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkerException("interrupted while calling worker " + base + path, e);
    }
    check(response, path);
    return response.body();
  }

  private HttpRequest request(String path, String json, Duration timeout) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header(COORDINATOR_HEADER, coordinator)
            .POST(HttpRequest.BodyPublishers.ofString(json));
    token.ifPresent(value -> builder.header("Authorization", "Bearer " + value));
    return builder.build();
  }

  private void check(HttpResponse<String> response, String path) {
    int status = response.statusCode();
    if (status == 200) {
      return;
    }
    if (status == 401) {
      throw new BadInputException(
          "worker "
              + base
              + " refused the token (401): give the worker's token with --token-file or "
              + Tokens.ENV);
    }
    WireMessages.Failure failure;
    try {
      failure = JSON.readValue(response.body(), WireMessages.Failure.class);
    } catch (IOException | IllegalArgumentException e) {
      failure = new WireMessages.Failure("HTTP " + status, false);
    }
    if (failure.badInput()) {
      if (status == 503) {
        throw new UnreachableBrokerException(failure.error());
      }
      throw new BadInputException(failure.error());
    }
    if (status == 501) {
      // The worker's driver lacks the capability: the same exception a local worker throws, so
      // the run words it the same way, naming this worker.
      throw new UnsupportedOperationException("worker " + base + ": " + failure.error());
    }
    throw new WorkerException("worker " + base + path + ": " + failure.error());
  }

  static String describe(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getMessage() == null) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
  }

  private static String seconds(Duration duration) {
    return duration.toSeconds() + " s";
  }
}
