package io.plumb.remote;

import io.plumb.driver.DaemonThreads;
import io.plumb.worker.WorkerException;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The members of an ensemble and the calls made to several at once. A member that cannot be reached
 * is marked lost, once; the first loss is told to the run (which then stops the others and writes
 * what it has, marked incomplete).
 */
final class WorkerFleet {
  private final List<RemoteMember> members;
  private final ExecutorService calls =
      Executors.newCachedThreadPool(DaemonThreads.named("plumb-calls"));
  private volatile Consumer<String> onLost = reason -> {};
  private String firstLoss;

  WorkerFleet(List<RemoteMember> members) {
    this.members = members;
  }

  List<RemoteMember> all() {
    return members;
  }

  List<RemoteMember> live() {
    return members.stream().filter(m -> m.lost == null).toList();
  }

  ExecutorService executor() {
    return calls;
  }

  void onLost(Consumer<String> listener) {
    this.onLost = listener;
  }

  void lose(RemoteMember member, String reason) {
    String message;
    synchronized (this) {
      if (member.lost != null) {
        return;
      }
      member.lost = reason;
      if (firstLoss != null) {
        return;
      }
      firstLoss = "worker " + member.name() + " was lost mid-run: " + reason;
      message = firstLoss + "; the other workers were stopped";
    }
    onLost.accept(message);
  }

  synchronized void failIfLost() {
    if (firstLoss != null) {
      throw new WorkerException(firstLoss);
    }
  }

  /** Calls every target at once; the first failure is thrown (bad input as such). */
  <T> List<T> onEach(List<RemoteMember> targets, Function<HttpWorker, T> call) {
    return parallel(targets, member -> call.apply(member.worker));
  }

  <T> List<T> parallel(List<RemoteMember> targets, Function<RemoteMember, T> call) {
    List<CompletableFuture<T>> futures = new ArrayList<>();
    for (RemoteMember member : targets) {
      futures.add(CompletableFuture.supplyAsync(() -> call.apply(member), calls));
    }
    List<T> results = new ArrayList<>();
    RuntimeException first = null;
    for (int i = 0; i < futures.size(); i++) {
      try {
        results.add(futures.get(i).join());
      } catch (CompletionException e) {
        RuntimeException cause =
            e.getCause() instanceof RuntimeException runtime
                ? runtime
                : new WorkerException(String.valueOf(e.getCause()), e.getCause());
        if (unreachable(cause)) {
          lose(targets.get(i), HttpWorker.describe(cause));
        }
        first = first == null ? cause : first;
      }
    }
    if (first != null) {
      throw first;
    }
    return results;
  }

  /** Like {@link #onEach}, but a worker that fails is left out (and noted lost). */
  <T> List<T> tolerant(List<RemoteMember> targets, Function<HttpWorker, T> call) {
    List<CompletableFuture<T>> futures = new ArrayList<>();
    for (RemoteMember member : targets) {
      futures.add(CompletableFuture.supplyAsync(() -> call.apply(member.worker), calls));
    }
    List<T> results = new ArrayList<>();
    for (int i = 0; i < futures.size(); i++) {
      try {
        results.add(futures.get(i).join());
      } catch (CompletionException e) {
        lose(targets.get(i), HttpWorker.describe(e.getCause()));
      }
    }
    return results;
  }

  void shutdown() {
    calls.shutdownNow();
  }

  private static boolean unreachable(Throwable error) {
    Throwable cause = error.getCause();
    return cause instanceof IOException || cause instanceof HttpTimeoutException;
  }
}
