package io.plumb.driver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A client's window as a driver reports it in its broker facts ({@link
 * BrokerFactNames#SEND_WINDOW}, {@link BrokerFactNames#RECEIVE_WINDOW}): how much may await the
 * other side at once, and the setting that decides it.
 *
 * @param value a whole number, a whole number and a unit ("33554432 bytes"), or {@value
 *     BrokerFactNames#UNBOUNDED}
 * @param limit the deciding setting's name as {@code --driver-set} takes it, a space, its value,
 *     and how to change it
 */
public record ClientWindow(String value, String limit) {

  public ClientWindow {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("a window needs a value");
    }
    if (limit == null || limit.isBlank() || Character.isWhitespace(limit.charAt(0))) {
      // Reports take the limit's first word for the setting's name: it must be there.
      throw new IllegalArgumentException("a window's limit must begin with its setting's name");
    }
  }

  /** A window of {@code count} messages. */
  public static ClientWindow messages(long count, String limit) {
    return new ClientWindow(whole(count), limit);
  }

  /** A window counted in something other than messages, e.g. {@code of(1048576, "bytes", ...)}. */
  public static ClientWindow of(long count, String unit, String limit) {
    if (unit == null || !unit.matches("[a-z]+")) {
      throw new IllegalArgumentException("a window's unit is one lower-case word, not " + unit);
    }
    return new ClientWindow(whole(count) + " " + unit, limit);
  }

  /** No setting bounds it; {@code limit} says what does (the socket, the client's memory). */
  public static ClientWindow unbounded(String limit) {
    return new ClientWindow(BrokerFactNames.UNBOUNDED, limit);
  }

  private static String whole(long count) {
    if (count < 1) {
      // A bound of 0 is how many clients spell "none": the driver must say unbounded instead.
      throw new IllegalArgumentException("a window of " + count + " messages admits nothing");
    }
    return Long.toString(count);
  }

  /** The setting that decides the window: the first word of {@link #limit}. */
  public String setting() {
    int space = limit.indexOf(' ');
    String first = space < 0 ? limit : limit.substring(0, space);
    // "maxUnconfirmed:" or "maxUnconfirmed," read as the setting alone.
    return first.replaceAll("[,;:]+$", "");
  }

  /** The four facts of {@code send} and {@code receive}; either may be null (not reported). */
  public static Map<String, String> facts(ClientWindow send, ClientWindow receive) {
    Map<String, String> facts = new LinkedHashMap<>();
    if (send != null) {
      facts.put(BrokerFactNames.SEND_WINDOW, send.value());
      facts.put(BrokerFactNames.SEND_WINDOW_LIMIT, send.limit());
    }
    if (receive != null) {
      facts.put(BrokerFactNames.RECEIVE_WINDOW, receive.value());
      facts.put(BrokerFactNames.RECEIVE_WINDOW_LIMIT, receive.limit());
    }
    return facts;
  }

  /** "1 partition", "4 partitions": most windows are a per-partition bound times the partitions. */
  public static String partitions(int count) {
    return count + (count == 1 ? " partition" : " partitions");
  }

  /** The most partitions of any topic in {@code partitionsByTopic}; 0 for none. */
  public static int mostPartitions(Map<String, Integer> partitionsByTopic) {
    return partitionsByTopic.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** The send window among a run's facts, if its driver reported one. */
  public static Optional<ClientWindow> send(Map<String, String> facts) {
    return read(facts, BrokerFactNames.SEND_WINDOW, BrokerFactNames.SEND_WINDOW_LIMIT);
  }

  /** The receive window among a run's facts, if its driver reported one. */
  public static Optional<ClientWindow> receive(Map<String, String> facts) {
    return read(facts, BrokerFactNames.RECEIVE_WINDOW, BrokerFactNames.RECEIVE_WINDOW_LIMIT);
  }

  private static Optional<ClientWindow> read(
      Map<String, String> facts, String valueName, String limitName) {
    String value = facts.get(valueName);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String limit = facts.get(limitName);
    // A driver that named no setting still has its window shown, with the gap said plainly.
    return Optional.of(
        new ClientWindow(
            value,
            limit == null || limit.isBlank() || Character.isWhitespace(limit.charAt(0))
                ? "? (the driver names no setting)"
                : limit));
  }
}
