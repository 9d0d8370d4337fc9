package io.plumb.resources;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The longest single wait for a core of the threads that keep a schedule (producer loops), as Linux
 * counts it: a thread's run delay ({@code /proc/<pid>/task/<tid>/schedstat}, second field,
 * nanoseconds runnable but not running) grows by a whole wait when the thread gets a core back. The
 * {@link HostStalls} thread reads every watched thread's figure once a millisecond, so the largest
 * growth between two readings is the longest a producer stood ready to send and could not (or a few
 * short waits within one millisecond).
 *
 * <p>Host stalls are what a sleeping thread lived; this is what the producers lived. On a 2-core VM
 * a spinning producer's send delay of 2 to 4 ms matched a wait of the same length, while the JIT
 * compiler's and the JFR stream's threads ran, and the stall thread on the other core saw nothing
 * unusual: the host stalls alone could not tell the user whose lateness it was.
 *
 * <p>Reading allocates nothing (one channel and buffer a thread), since it runs a thousand times a
 * second beside a generator whose measured minute should see no garbage collection.
 */
public final class CoreWaits {
  private static final Set<Watched> WATCHED = ConcurrentHashMap.newKeySet();

  private CoreWaits() {}

  /** A thread being watched; closing it ends the watch and throws nothing. */
  public interface Watch extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Watches the thread whose schedstat file is {@code schedstat} until the returned handle is
   * closed (or the file can no longer be read: the thread ended).
   */
  public static Watch watch(Path schedstat) {
    Watched watched = open(schedstat);
    if (watched == null) {
      return () -> {};
    }
    WATCHED.add(watched);
    return watched;
  }

  /** One thread's figure, not yet watched; null when the file cannot be opened. */
  static Watched open(Path schedstat) {
    try {
      return new Watched(FileChannel.open(schedstat, StandardOpenOption.READ));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return null;
    }
  }

  /**
   * The largest growth of a watched thread's run delay since the previous call, 0 when none grew;
   * called by the one {@link HostStalls} thread.
   */
  static long sample() {
    long longest = 0;
    for (Watched watched : WATCHED) {
      longest = Math.max(longest, watched.growth());
    }
    return longest;
  }

  /** Threads watched now (for tests). */
  static int watched() {
    return WATCHED.size();
  }

  static final class Watched implements Watch {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(128);
    private long last = -1;

    Watched(FileChannel channel) {
      this.channel = channel;
    }

    /** How much the run delay grew since the previous reading; the first reading is the base. */
    long growth() {
      long now = read();
      if (now < 0) {
        close();
        return 0;
      }
      long grown = last < 0 ? 0 : Math.max(0, now - last);
      last = now;
      return grown;
    }

    /** The second field of the file, or -1 when it cannot be read. */
    private long read() {
      buffer.clear();
      try {
        if (channel.read(buffer, 0) <= 0) {
          return -1;
        }
      } catch (IOException e) {
        return -1;
      }
      int end = buffer.position();
      int at = 0;
      while (at < end && buffer.get(at) != ' ') {
        at++;
      }
      while (at < end && buffer.get(at) == ' ') {
        at++;
      }
      long value = 0;
      int digits = 0;
      for (; at < end; at++, digits++) {
        byte b = buffer.get(at);
        if (b < '0' || b > '9') {
          break;
        }
        value = value * 10 + (b - '0');
      }
      return digits == 0 ? -1 : value;
    }

    @Override
    public void close() {
      WATCHED.remove(this);
      try {
        channel.close();
      } catch (IOException e) {
        // Nothing held that matters: the thread is gone or the run is over.
      }
    }
  }
}
