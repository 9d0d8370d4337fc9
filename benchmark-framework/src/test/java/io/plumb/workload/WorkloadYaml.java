package io.plumb.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
  private String name;
  private String topics = "1";
  private String partitions = "1";
  private String messageSize = "100";
  private String subscriptions = "1";
  private String consumers = "1";
  private String producers = "1";
  private String rate = "100";
  private String seconds = "1";
  private String warmup = "0";
  private String extra = "";

  private WorkloadYaml() {}

  /** The defaults above, without a name. */
  public static WorkloadYaml oneTopic() {
    return new WorkloadYaml();
  }

  public WorkloadYaml named(String name) {
    this.name = name;
    return this;
  }

  public WorkloadYaml topics(int topics) {
    this.topics = String.valueOf(topics);
    return this;
  }

  public WorkloadYaml partitions(int partitions) {
    this.partitions = String.valueOf(partitions);
    return this;
  }

  public WorkloadYaml messageSize(int bytes) {
    this.messageSize = String.valueOf(bytes);
    return this;
  }

  /** {@code subscriptions} per topic of {@code consumers} each. */
  public WorkloadYaml subscriptions(int subscriptions, int consumers) {
    this.subscriptions = String.valueOf(subscriptions);
    this.consumers = String.valueOf(consumers);
    return this;
  }

  public WorkloadYaml producers(int producers) {
    this.producers = String.valueOf(producers);
    return this;
  }

  /** {@code producerRate} as written, {@code 0} for a peak search included. */
  public WorkloadYaml rate(String rate) {
    this.rate = rate;
    return this;
  }

  public WorkloadYaml rate(long rate) {
    return rate(String.valueOf(rate));
  }

  /** {@code testDurationSeconds}. */
  public WorkloadYaml seconds(Number seconds) {
    this.seconds = String.valueOf(seconds);
    return this;
  }

  /** {@code warmupDurationSeconds}. */
  public WorkloadYaml warmup(Number seconds) {
    this.warmup = String.valueOf(seconds);
    return this;
  }

  /** {@code lines} of YAML, each ending in a line break, after the figures above. */
  public WorkloadYaml with(String lines) {
    this.extra = lines;
    return this;
  }

  public String text() {
    return (name == null ? "" : "name: " + name + "\n")
        + "topics: "
        + topics
        + "\npartitionsPerTopic: "
        + partitions
        + "\nmessageSize: "
        + messageSize
        + "\nsubscriptionsPerTopic: "
        + subscriptions
        + "\nconsumerPerSubscription: "
        + consumers
        + "\nproducersPerTopic: "
        + producers
        + "\nproducerRate: "
        + rate
        + "\ntestDurationSeconds: "
        + seconds
        + "\nwarmupDurationSeconds: "
        + warmup
        + "\n"
        + extra;
  }

  /** Writes the text to {@code file}; returns {@code file}. */
  public Path writeTo(Path file) throws IOException {
    return Files.writeString(file, text());
  }
}
