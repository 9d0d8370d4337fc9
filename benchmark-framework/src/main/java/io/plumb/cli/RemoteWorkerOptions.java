package io.plumb.cli;

import io.plumb.input.BadInputException;
import io.plumb.loopback.LoopbackDriver;
import io.plumb.remote.DistributedWorkers;
import io.plumb.remote.HttpWorker;
import io.plumb.remote.TlsContexts;
import io.plumb.remote.Tokens;
import io.plumb.remote.WorkerEndpoints;
import io.plumb.remote.WorkerRoles;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.Worker;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Option;

/** The coordinator's options for remote workers, and the worker they choose for each run. */
final class RemoteWorkerOptions {
  @Option(
      names = {"-w", "--workers"},
      split = ",",
      paramLabel = "URL",
      description =
          "Remote workers started with bin/benchmark-worker, comma-separated, e.g. http://10.0.0.1:8080,http://10.0.0.2:8080 (default: one worker in this process).")
  List<String> workers;

  @Option(
      names = {"-wf", "--workers-file"},
      paramLabel = "FILE",
      description =
          "YAML file listing remote workers, OpenMessaging Benchmark's format: 'workers:' then a list of URLs.")
  Path workersFile;

  @Option(
      names = "--worker-roles",
      paramLabel = "split|both",
      description =
          "split (default, as OpenMessaging Benchmark): the first half of the workers produce, the second half consume; both: every worker produces and consumes.")
  String roles;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "File holding the workers' shared secret (default: the environment variable PLUMB_WORKER_TOKEN).")
  Path tokenFile;

  @Option(
      names = "--tls-truststore",
      paramLabel = "FILE",
      description =
          "Trust https:// workers whose certificates this keystore holds (default: the JVM's trusted authorities).")
  Path truststore;

  @Option(
      names = "--tls-truststore-password-file",
      paramLabel = "FILE",
      description = "File holding the truststore's password.")
  Path truststorePasswordFile;

  private List<URI> endpoints = List.of();
  private Optional<String> token = Optional.empty();
  private SSLContext tls;
  private WorkerRoles parsedRoles;

  /** Checks every option before anything runs. */
  void validate() {
    if (workers != null && workersFile != null) {
      throw new BadInputException("--workers and --workers-file: give one or the other");
    }
    List<URI> found = new ArrayList<>();
    if (workers != null) {
      found.addAll(WorkerEndpoints.parse(workers, "--workers"));
    } else if (workersFile != null) {
      found.addAll(WorkerEndpoints.fromFile(workersFile));
    }
    endpoints = List.copyOf(found);
    if (endpoints.isEmpty()) {
      refuseWithoutWorkers("--worker-roles", roles);
      refuseWithoutWorkers("--token-file", tokenFile);
      refuseWithoutWorkers("--tls-truststore", truststore);
      refuseWithoutWorkers("--tls-truststore-password-file", truststorePasswordFile);
    }
    if (truststorePasswordFile != null && truststore == null) {
      throw new BadInputException(
          "--tls-truststore-password-file: applies only with --tls-truststore");
    }
    parsedRoles =
        switch (roles == null ? "split" : roles) {
          case "split" -> WorkerRoles.SPLIT;
          case "both" -> WorkerRoles.BOTH;
          default ->
              throw new BadInputException(
                  "--worker-roles: '" + roles + "' is not one of split, both");
        };
    if (endpoints.isEmpty()) {
      return;
    }
    token = Tokens.read(tokenFile, "--token-file");
    if (truststore != null) {
      tls = TlsContexts.client(truststore, truststorePasswordFile, "--tls-truststore");
    }
  }

  /** An option for remote workers, given without any, would be silently ignored: refuse it. */
  private static void refuseWithoutWorkers(String option, Object value) {
    if (value != null) {
      throw new BadInputException(
          option
              + ": applies only with --workers or --workers-file (this run uses no remote worker)");
    }
  }

  /** Whether runs go to remote workers (after {@link #validate}). */
  boolean remote() {
    return !endpoints.isEmpty();
  }

  /**
   * The in-process loopback driver is a broker inside each worker's JVM: with producers and
   * consumers on different workers, nothing sent could ever be received. Refused before any worker
   * is called, rather than failing the subscription check a minute later.
   */
  void checkDriver(Path driverFile, String driverClass) {
    if (endpoints.size() > 1
        && parsedRoles == WorkerRoles.SPLIT
        && driverClass.equals(LoopbackDriver.class.getName())) {
      throw new BadInputException(
          driverFile
              + ": the loopback driver keeps messages inside each worker's JVM, so with --worker-roles split"
              + " (the default) the consuming workers never see what the producing ones send; use"
              + " --worker-roles both, or a real broker");
    }
  }

  /** The worker for one run: the remote ensemble, reached and clock-measured, or a local one. */
  Worker connect() {
    if (endpoints.isEmpty()) {
      return new LocalWorker();
    }
    List<HttpWorker> remote = new ArrayList<>();
    for (URI endpoint : endpoints) {
      remote.add(new HttpWorker(endpoint, token, tls));
    }
    return DistributedWorkers.connect(remote, parsedRoles);
  }
}
