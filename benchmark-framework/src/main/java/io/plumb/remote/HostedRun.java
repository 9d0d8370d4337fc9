package io.plumb.remote;

import io.plumb.input.BadInputException;
import io.plumb.input.UnreachableBrokerException;
import io.plumb.load.WorkerClock;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The one run a {@link WorkerServer} serves at a time: its {@link LocalWorker}, used by one request
 * at a time, the private copy of its driver file, and the lease the coordinator holds on it.
 */
final class HostedRun {
  private final WorkerServer.Settings settings;
  private final WorkerClock clock;
  private final Lease lease;
  private final PrintStream log;
  private final Object workerLock = new Object();
  private LocalWorker worker;
  private Path driverDirectory;

  /**
   * The coordinator whose run this is ({@link HttpWorker#COORDINATOR_HEADER}): only its calls reach
   * the run and renew its lease, so another coordinator refused the worker, tearing down its own
   * failed run, cannot close this one, nor keep it alive once its own coordinator is gone.
   */
  private volatile String owner;

  /** Another coordinator's run holds this worker. */
  static final class BusyException extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  interface WorkerAction {
    void apply(LocalWorker worker);
  }

  interface WorkerQuery<T> {
    T apply(LocalWorker worker);
  }

  HostedRun(WorkerServer.Settings settings, WorkerClock clock, Lease lease, PrintStream log) {
    this.settings = settings;
    this.clock = clock;
    this.lease = lease;
    this.log = log;
  }

  /**
   * Starts a run with a fresh worker and initialises its driver, ending the previous run unless
   * another coordinator still holds it.
   *
   * @throws BusyException when another coordinator's lease is still armed
   */
  DriverInfo initialize(WireMessages.Initialize request, String from) throws IOException {
    synchronized (workerLock) {
      if (worker != null && lease.armed()) {
        throw new BusyException();
      }
      endRun();
      worker = new LocalWorker(settings.producerThreads(), clock);
      owner = from;
      lease.arm();
      log.println("run " + request.runId() + ": initialising " + request.setup().fileName());
      DriverSetup copy = privateCopy(request.setup());
      try {
        return worker.initializeDriver(copy, request.runId());
      } catch (UnreachableBrokerException e) {
        throw new UnreachableBrokerException(asUserNamedIt(e, copy, request.setup()));
      } catch (BadInputException e) {
        throw new BadInputException(asUserNamedIt(e, copy, request.setup()));
      }
    }
  }

  /** A request came from {@code from}: the run's own coordinator renews its lease. */
  void heardFrom(String from) {
    if (lease.armed() && from.equals(owner)) {
      lease.renew();
    }
  }

  /**
   * The coordinator ended its run: closes the worker and releases the lease.
   *
   * @throws BusyException when the run is another coordinator's
   */
  void close(String from) {
    synchronized (workerLock) {
      if (worker != null && !from.equals(owner)) {
        throw new BusyException();
      }
      lease.disarm();
      if (worker != null) {
        LocalWorker closing = worker;
        worker = null;
        closing.close();
      }
      deleteDriverCopy();
    }
  }

  /** Ends the run under way, if any: its lease ran out, or the server is closing. */
  void end() {
    synchronized (workerLock) {
      endRun();
    }
  }

  /** Stops whatever run is under way and releases its clients and driver. Holds workerLock. */
  private void endRun() {
    if (worker == null) {
      return;
    }
    LocalWorker ending = worker;
    worker = null;
    lease.disarm();
    try {
      ending.stopLoad();
      ending.closeClients(List.of());
    } catch (RuntimeException e) {
      log.println("closing clients: " + e.getMessage());
    }
    try {
      ending.close();
    } catch (RuntimeException e) {
      log.println("closing driver: " + e.getMessage());
    }
    deleteDriverCopy();
  }

  /** The message with the worker's private copy named as the coordinator's user named the file. */
  private static String asUserNamedIt(RuntimeException e, DriverSetup copy, DriverSetup original) {
    return e.getMessage().replace(copy.fileName(), original.fileName());
  }

  /**
   * The driver file as the coordinator sent it, in a private directory under its own name: a file
   * of the same path on this host is never read instead, and error messages name the user's file.
   */
  private DriverSetup privateCopy(DriverSetup setup) throws IOException {
    deleteDriverCopy();
    driverDirectory = Files.createTempDirectory("plumb-worker-");
    Path name = Path.of(setup.fileName()).getFileName();
    Path copy = driverDirectory.resolve(name == null ? "driver.yaml" : name.toString());
    Files.writeString(copy, setup.yaml());
    return new DriverSetup(copy.toString(), setup.yaml(), setup.overrides());
  }

  private void deleteDriverCopy() {
    if (driverDirectory == null) {
      return;
    }
    try (var files = Files.list(driverDirectory)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(driverDirectory);
    } catch (IOException e) {
      log.println("could not delete " + driverDirectory + ": " + e.getMessage());
    }
    driverDirectory = null;
  }

  /** Applies {@code action} to the run's worker; the answer is an empty JSON object. */
  Object withWorker(String from, WorkerAction action) {
    synchronized (workerLock) {
      action.apply(current(from));
    }
    return Map.of();
  }

  <T> T answer(String from, WorkerQuery<T> query) {
    synchronized (workerLock) {
      return query.apply(current(from));
    }
  }

  /** The run's worker, for its own coordinator {@code from}. */
  private LocalWorker current(String from) {
    if (worker != null && !from.equals(owner)) {
      throw new BusyException();
    }
    if (worker == null) {
      throw new IllegalStateException(
          "no run in progress on this worker (never initialised, closed, or stopped after its lease of "
              + settings.leaseTimeout().toSeconds()
              + " s ran out)");
    }
    return worker;
  }
}
