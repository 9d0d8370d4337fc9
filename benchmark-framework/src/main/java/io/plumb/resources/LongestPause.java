package io.plumb.resources;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The longest pause since each reader's previous read. Readers share their JVM's one source (a
 * coordinator and a worker server in one JVM, say), so each has a cell of its own: one reader's
 * read must not reset what another has yet to see.
 */
final class LongestPause {
  private final Set<AtomicLong> readers = ConcurrentHashMap.newKeySet();

  AtomicLong register() {
    AtomicLong cell = new AtomicLong();
    readers.add(cell);
    return cell;
  }

  void unregister(AtomicLong cell) {
    readers.remove(cell);
  }

  /** Called once per pause, on the source's thread: up to a thousand times a second. */
  void record(long nanos) {
    for (AtomicLong cell : readers) {
      cell.accumulateAndGet(nanos, Math::max);
    }
  }
}
