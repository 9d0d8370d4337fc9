package io.plumb.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The YAML of a workload file as tests write it: one topic with one partition, one producer and one
 * subscription of one consumer, 100-byte messages at 100 msg/s for 1 second without warm-up, unless
 * a test says otherwise. Tests set only the figures they are about, so what each one varies stands
 * out.
 *
 * <p>Figures are kept as the text that goes into the file, so a test writes one exactly as a user
 * would ({@code 0.5}, {@code 5000000}).
 */
public final class WorkloadYaml {
  /** Each figure's field and text, in the order they go into the file. */
  private final Map<String, String> figures = new LinkedHashMap<>();

  private String name;
  private String extra = "";

  private WorkloadYaml() {
    // The defaults the class comment names, in the file's order.
    topics(1);
    partitions(1);
    messageSize(100);
    subscriptions(1, 1);
    producers(1);
    rate(100);
    seconds(1);
    warmup(0);
  }

  /** The defaults above, without a name. */
  public static WorkloadYaml oneTopic() {
    return new WorkloadYaml();
  }

  public WorkloadYaml named(String name) {
    this.name = name;
    return this;
  }

  public WorkloadYaml topics(int topics) {
    return set("topics", topics);
  }

  public WorkloadYaml partitions(int partitions) {
    return set("partitionsPerTopic", partitions);
  }

  public WorkloadYaml messageSize(int bytes) {
    return set("messageSize", bytes);
  }

  /** {@code subscriptions} per topic of {@code consumers} each. */
  public WorkloadYaml subscriptions(int subscriptions, int consumers) {
    return set("subscriptionsPerTopic", subscriptions).set("consumerPerSubscription", consumers);
  }

  public WorkloadYaml producers(int producers) {
    return set("producersPerTopic", producers);
  }

  /** {@code producerRate} as written, {@code 0} for a peak search included. */
  public WorkloadYaml rate(String rate) {
    return set("producerRate", rate);
  }

  public WorkloadYaml rate(long rate) {
    return rate(String.valueOf(rate));
  }

  /** {@code testDurationSeconds}. */
  public WorkloadYaml seconds(Number seconds) {
    return set("testDurationSeconds", seconds);
  }

  /** {@code warmupDurationSeconds}. */
  public WorkloadYaml warmup(Number seconds) {
    return set("warmupDurationSeconds", seconds);
  }

  /** {@code lines} of YAML, each ending in a line break, after the figures above. */
  public WorkloadYaml with(String lines) {
    this.extra = lines;
    return this;
  }

  /** Sets a figure; one set again keeps its place in the file. */
  private WorkloadYaml set(String field, Object value) {
    figures.put(field, String.valueOf(value));
    return this;
  }

  public String text() {
    StringBuilder text = new StringBuilder(name == null ? "" : "name: " + name + "\n");
    figures.forEach((field, value) -> text.append(field).append(": ").append(value).append('\n'));
    return text.append(extra).toString();
  }

  /** Writes the text to {@code file}; returns {@code file}. */
  public Path writeTo(Path file) throws IOException {
    return Files.writeString(file, text());
  }
}
