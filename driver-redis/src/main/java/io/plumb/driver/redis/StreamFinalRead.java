package io.plumb.driver.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.plumb.driver.MessageListener;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;
import redis.clients.jedis.Jedis;

/**
 * Reads a topic's streams to their end once the run is over: for each partition's stream, the last
 * entry's ID is read first (XREVRANGE + - COUNT 1, beside XLEN), then XRANGE pages from the start
 * up to that ID hand each entry's payload (and its header, when it travels as a field) over with
 * the partition index, as the run's consumers do. Nothing is acknowledged or changed: the read
 * needs no consumer group.
 */
final class StreamFinalRead {
  /** Entries per XRANGE call: large enough to be quick, small enough to keep replies modest. */
  private static final int PAGE = 1_000;

  private static final byte[] FIRST = StreamFields.bytes("-");
  private static final byte[] LAST = StreamFields.bytes("+");

  private StreamFinalRead() {}

  /**
   * @return e.g. "2 streams, XLEN 1,204 + 1,198 = 2,402, last IDs 1700000000000-3, 1700000000000-7"
   */
  static String read(
      Jedis jedis, String topic, int partitions, MessageListener sink, Duration timeout)
      throws TimeoutException {
    long deadline = System.nanoTime() + timeout.toNanos();
    byte[][] streams = RedisKeys.partitions(topic, partitions);
    long[] lengths = new long[partitions];
    String[] lastIds = new String[partitions];
    // Every stream's end first, so the read's end is one moment's, as for a log.
    for (int p = 0; p < partitions; p++) {
      lengths[p] = jedis.xlen(streams[p]);
      List<Object> last = jedis.xrevrange(streams[p], LAST, FIRST, 1);
      lastIds[p] = last == null || last.isEmpty() ? null : idOf(last.get(0));
    }
    for (int p = 0; p < partitions; p++) {
      if (lastIds[p] == null) {
        continue;
      }
      byte[] end = lastIds[p].getBytes(UTF_8);
      byte[] from = FIRST;
      while (true) {
        if (System.nanoTime() > deadline) {
          throw new TimeoutException(
              String.format(
                  "%s: stream %d not read to its last ID %s within %d s",
                  topic, p, lastIds[p], timeout.toSeconds()));
        }
        List<Object> page = jedis.xrange(streams[p], from, end, PAGE);
        if (page == null || page.isEmpty()) {
          break;
        }
        for (Object entry : page) {
          StreamHeader.deliver((List<?>) ((List<?>) entry).get(1), p, sink);
        }
        String lastRead = idOf(page.get(page.size() - 1));
        if (lastRead.equals(lastIds[p]) || page.size() < PAGE) {
          break;
        }
        from = ("(" + lastRead).getBytes(UTF_8);
      }
    }
    return describe(lengths, lastIds);
  }

  static String describe(long[] lengths, String[] lastIds) {
    long total = Arrays.stream(lengths).sum();
    StringBuilder text = new StringBuilder(String.format("%d stream(s), XLEN ", lengths.length));
    if (lengths.length == 1 || lengths.length > 8) {
      text.append(String.format("%,d", total));
    } else {
      for (int p = 0; p < lengths.length; p++) {
        text.append(p == 0 ? "" : " + ").append(String.format("%,d", lengths[p]));
      }
      text.append(String.format(" = %,d", total));
    }
    if (lengths.length <= 8) {
      text.append(", last IDs ");
      for (int p = 0; p < lastIds.length; p++) {
        text.append(p == 0 ? "" : ", ").append(lastIds[p] == null ? "none" : lastIds[p]);
      }
    }
    return text.toString();
  }

  private static String idOf(Object entry) {
    return new String((byte[]) ((List<?>) entry).get(0), UTF_8);
  }
}
