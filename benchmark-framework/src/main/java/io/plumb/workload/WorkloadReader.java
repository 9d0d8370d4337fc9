package io.plumb.workload;

import io.plumb.input.BadInputException;
import io.plumb.input.YamlFields;
import io.plumb.message.HeaderPlacement;
import io.plumb.message.MessageHeader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Reads and validates a workload file; every problem is one line naming file, line and field. */
public final class WorkloadReader {
  private static final long MAX_MESSAGE_SIZE = 100L * 1024 * 1024;
  private static final double MAX_MINUTES = 7 * 24 * 60;

  /**
   * The shortest test or warm-up: the shortest period between rate samples that --period allows.
   * Shorter is no measurement (a test below half a nanosecond rounded to nothing, ran nothing and
   * exited 0).
   */
  private static final double SHORTEST_SECONDS = 0.1;

  /** OMB's workload fields, plus Plumb's durations in seconds and where its header travels. */
  private static final List<String> FIELDS =
      List.of(
          "name",
          "topics",
          "partitionsPerTopic",
          "keyDistributor",
          "messageSize",
          "payloadFile",
          "useRandomizedPayloads",
          "randomBytesRatio",
          "randomizedPayloadPoolSize",
          "subscriptionsPerTopic",
          "producersPerTopic",
          "consumerPerSubscription",
          "producerRate",
          "consumerBacklogSizeGB",
          "backlogDrainRatio",
          "testDurationMinutes",
          "testDurationSeconds",
          "warmupDurationMinutes",
          "warmupDurationSeconds",
          "consumerOnly",
          "headerIn");

  private WorkloadReader() {}

  public static Workload read(Path file) {
    YamlFields fields = YamlFields.read(file);
    fields.rejectFieldsOtherThan(FIELDS);
    String name = fields.string("name").orElse(baseName(file));
    // No limits of their own beyond what counts of clients can hold: whether a workload fits is a
    // question of memory, answered by MemoryEstimate before anything is created.
    int topics = required(fields, "topics", fields.whole("topics", 1, Integer.MAX_VALUE));
    int partitions =
        required(
            fields, "partitionsPerTopic", fields.whole("partitionsPerTopic", 1, Integer.MAX_VALUE));
    KeyDistributorType keys =
        fields.choice("keyDistributor", KeyDistributorType.class).orElse(KeyDistributorType.NO_KEY);
    int messageSize =
        required(fields, "messageSize", fields.whole("messageSize", 1, MAX_MESSAGE_SIZE));
    Optional<String> payloadFileName = fields.string("payloadFile");
    boolean randomized = fields.bool("useRandomizedPayloads").orElse(false);
    double randomRatio = fields.number("randomBytesRatio", 0, false, 1).orElse(0.0);
    int poolSize =
        fields.whole("randomizedPayloadPoolSize", 0, 1_000_000).map(Long::intValue).orElse(0);
    int subscriptions =
        required(fields, "subscriptionsPerTopic", fields.whole("subscriptionsPerTopic", 0, 10_000));
    int producers =
        required(fields, "producersPerTopic", fields.whole("producersPerTopic", 1, 10_000));
    int consumers =
        required(
            fields, "consumerPerSubscription", fields.whole("consumerPerSubscription", 0, 10_000));
    double rate =
        requiredNumber(fields, "producerRate", fields.number("producerRate", 0, false, 1e9));
    double backlogGB = fields.number("consumerBacklogSizeGB", 0, false, 1e6).orElse(0.0);
    // OMB: the share of the backlog to drain, from 0 (no wait) to 1 (drain it all).
    double drainRatio = fields.number("backlogDrainRatio", 0, false, 1).orElse(1.0);
    boolean consumerOnly = fields.bool("consumerOnly").orElse(false);
    Optional<HeaderPlacement> headerIn = headerIn(fields);
    Duration test = duration(fields, "testDurationMinutes", "testDurationSeconds", true, null);
    Duration warmup =
        duration(
            fields, "warmupDurationMinutes", "warmupDurationSeconds", false, Duration.ofMinutes(1));
    fields.rejectUnknownFields();

    if ((long) topics * producers > Integer.MAX_VALUE) {
      throw fields.error(
          "producersPerTopic",
          String.format(
              "%,d topics of %,d producers is more than %,d producers in all",
              topics, producers, Integer.MAX_VALUE));
    }
    if ((long) topics * subscriptions * consumers > Integer.MAX_VALUE) {
      throw fields.error(
          "consumerPerSubscription",
          String.format(
              "%,d topics of %,d subscriptions of %,d consumers is more than %,d consumers in all",
              topics, subscriptions, consumers, Integer.MAX_VALUE));
    }
    if (subscriptions > 0 && consumers == 0) {
      throw fields.error(
          "consumerPerSubscription",
          "must be at least 1 when subscriptionsPerTopic is " + subscriptions);
    }
    if (backlogGB > 0 && subscriptions == 0) {
      throw fields.error(
          "consumerBacklogSizeGB",
          "a backlog needs consumers: set subscriptionsPerTopic to at least 1, or use 0");
    }
    if (backlogGB > 0 && rate == 0) {
      throw fields.error(
          "consumerBacklogSizeGB",
          "a backlog is built at a given producerRate, not during a peak search: give producerRate above 0, or use 0");
    }
    if (consumerOnly && backlogGB == 0) {
      throw fields.error(
          "consumerOnly",
          "a consumer-only run drains a backlog: set consumerBacklogSizeGB above 0, or remove consumerOnly");
    }
    if (headerIn.equals(Optional.of(HeaderPlacement.PAYLOAD)) && messageSize < MessageHeader.SIZE) {
      throw fields.error(
          "headerIn",
          String.format(
              "payload: a messageSize of %d bytes cannot hold Plumb's %d-byte header; use"
                  + " metadata (or leave headerIn out), or a messageSize of %d or more",
              messageSize, MessageHeader.SIZE, MessageHeader.SIZE));
    }
    if (randomized && poolSize == 0) {
      throw fields.error(
          "randomizedPayloadPoolSize", "must be at least 1 when useRandomizedPayloads is true");
    }
    Optional<Path> payloadFile = Optional.empty();
    if (payloadFileName.isPresent() && !randomized) {
      Path payload = resolvePayload(file, payloadFileName.get());
      if (payload == null) {
        throw fields.error(
            "payloadFile",
            "file '"
                + payloadFileName.get()
                + "' not found (looked in the current directory and next to the workload)");
      }
      long size = sizeOf(fields, payload);
      if (size != messageSize) {
        throw fields.error(
            "payloadFile",
            "'"
                + payload
                + "' holds "
                + size
                + " bytes but messageSize is "
                + messageSize
                + "; they must be equal");
      }
      payloadFile = Optional.of(payload);
    }
    return new Workload(
        name,
        file,
        topics,
        partitions,
        keys,
        messageSize,
        payloadFile,
        randomized,
        randomRatio,
        poolSize,
        subscriptions,
        producers,
        consumers,
        rate,
        backlogGB,
        drainRatio,
        test,
        warmup,
        consumerOnly,
        headerIn);
  }

  /** Plumb's {@code headerIn}: payload or metadata, lower case as the other YAML values. */
  private static Optional<HeaderPlacement> headerIn(YamlFields fields) {
    Optional<String> text = fields.string("headerIn");
    if (text.isEmpty()) {
      return Optional.empty();
    }
    for (HeaderPlacement placement : HeaderPlacement.values()) {
      if (placement.fieldValue().equals(text.get())) {
        return Optional.of(placement);
      }
    }
    throw fields.error(
        "headerIn",
        "expected payload (the header's "
            + MessageHeader.SIZE
            + " bytes start each message) or metadata (the broker's per-message metadata carries"
            + " them), got '"
            + text.get()
            + "'");
  }

  private static int required(YamlFields fields, String field, Optional<? extends Number> value) {
    if (value.isEmpty()) {
      throw new BadInputException(fields.file() + ": missing field '" + field + "'");
    }
    return value.get().intValue();
  }

  private static double requiredNumber(YamlFields fields, String field, Optional<Double> value) {
    if (value.isEmpty()) {
      throw new BadInputException(fields.file() + ": missing field '" + field + "'");
    }
    return value.get();
  }

  /** OMB counts whole minutes; Plumb also takes fractions of a minute, or seconds. */
  private static Duration duration(
      YamlFields fields,
      String minutesField,
      String secondsField,
      boolean required,
      Duration fallback) {
    Optional<Double> minutes = fields.number(minutesField, 0, required, MAX_MINUTES);
    Optional<Double> seconds = fields.number(secondsField, 0, required, MAX_MINUTES * 60);
    if (minutes.isPresent() && seconds.isPresent()) {
      throw fields.error(
          secondsField, "give either " + minutesField + " or " + secondsField + ", not both");
    }
    if (minutes.isPresent()) {
      return atLeastShortest(fields, minutesField, minutes.get(), 60e9, " minutes", required);
    }
    if (seconds.isPresent()) {
      return atLeastShortest(fields, secondsField, seconds.get(), 1e9, "", required);
    }
    if (required) {
      throw new BadInputException(
          fields.file()
              + ": missing field '"
              + minutesField
              + "' (or '"
              + secondsField
              + "'): a run needs a duration");
    }
    return fallback;
  }

  /**
   * {@code value} of a unit of {@code unitNanos} as a duration, refused when shorter than {@link
   * #SHORTEST_SECONDS}; 0 stands for none where the duration is not {@code required} (the
   * warm-up's).
   */
  private static Duration atLeastShortest(
      YamlFields fields,
      String field,
      double value,
      double unitNanos,
      String unit,
      boolean required) {
    double nanos = value * unitNanos;
    if (nanos < SHORTEST_SECONDS * 1e9 && (required || value > 0)) {
      throw fields.error(
          field,
          "expected "
              + (required ? "" : "0 (no warm-up) or ")
              + "at least "
              + SHORTEST_SECONDS
              + " s (the shortest period between rate samples), got "
              + value
              + unit);
    }
    return Duration.ofNanos(Math.round(nanos));
  }

  private static Path resolvePayload(Path workloadFile, String name) {
    Path asGiven = Path.of(name);
    if (Files.isRegularFile(asGiven)) {
      return asGiven;
    }
    Path dir = workloadFile.toAbsolutePath().getParent();
    for (Path base = dir; base != null; base = base.getParent()) {
      Path candidate = base.resolve(name);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
      if (base.equals(dir.getParent())) {
        break;
      }
    }
    return null;
  }

  private static long sizeOf(YamlFields fields, Path payload) {
    try {
      return Files.size(payload);
    } catch (IOException e) {
      throw fields.error("payloadFile", "cannot read '" + payload + "': " + e.getMessage());
    }
  }

  private static String baseName(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }
}
