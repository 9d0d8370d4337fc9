package io.plumb.driver.nats;

import io.nats.client.support.Validator;
import io.plumb.driver.MessageListener;

/**
 * How a Plumb topic maps onto NATS: partition {@code p} of topic {@code t} is subject {@code t.p},
 * and a JetStream topic is one stream capturing {@code t.*}. Keeping partitions as subjects lets a
 * keyed workload spread over subjects while a consumer subscribes to all of them with one wildcard.
 */
final class Subjects {

  private Subjects() {}

  /**
   * The subject of a partition, checked here once (jnats's rules) because the connections skip the
   * check on each publish (NatsConnections).
   *
   * @throws IllegalArgumentException if the topic makes no valid subject
   */
  static String partition(String topic, int partition) {
    return Validator.validateSubjectTerm(topic + "." + partition, "Subject", true);
  }

  /** The subjects of partitions 0 to {@code partitions - 1}, in order, each checked once. */
  static String[] partitions(String topic, int partitions) {
    String[] subjects = new String[partitions];
    for (int p = 0; p < partitions; p++) {
      subjects[p] = partition(topic, p);
    }
    return subjects;
  }

  /** Every partition's subject, checked as {@link #partition} is. */
  static String wildcard(String topic) {
    return Validator.validateSubjectTerm(topic + ".*", "Subject", true);
  }

  /** Stream and consumer names may not contain '.', '*', '>', '/', '\' or whitespace. */
  static String name(String raw) {
    StringBuilder b = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      boolean bad = c == '.' || c == '*' || c == '>' || c == '/' || c == '\\' || c <= ' ';
      b.append(bad ? '_' : c);
    }
    return b.toString();
  }

  /**
   * Partition index from a subject {@code <topic>.<digits>}, parsed in place (no substring): this
   * runs for every received message. {@code prefixLength} is {@code topic.length() + 1}.
   */
  static int partitionOf(String subject, int prefixLength) {
    int n = subject.length();
    if (n <= prefixLength) {
      return MessageListener.UNKNOWN_PARTITION;
    }
    int value = 0;
    for (int i = prefixLength; i < n; i++) {
      int d = subject.charAt(i) - '0';
      if (d < 0 || d > 9) {
        return MessageListener.UNKNOWN_PARTITION;
      }
      value = value * 10 + d;
    }
    return value;
  }
}
