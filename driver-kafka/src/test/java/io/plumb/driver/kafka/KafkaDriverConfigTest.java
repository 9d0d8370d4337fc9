package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.testkit.DriverFileRefusalContract;
import io.plumb.worker.DriverSettingsReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the driver reads its file, the environment and {@code --driver-set}: everything that is
 * decided before the driver talks to a broker.
 */
class KafkaDriverConfigTest implements DriverFileRefusalContract {

  @TempDir Path dir;

  private Path write(String name, String yaml) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, yaml);
    return file;
  }

  private static DriverConfigException rejected(Path file, Map<String, String> overrides) {
    DriverConfigException e =
        assertThrows(
            DriverConfigException.class,
            () -> {
              try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver()) {
                driver.initialize(DriverSettingsReader.config(file, overrides));
              }
            });
    assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    return e;
  }

  private static DriverSettings settings(Path file, Map<String, String> overrides)
      throws DriverConfigException {
    return DriverSettingsReader.config(file, overrides).settings();
  }

  @Override
  public BenchmarkDriver newDriver() {
    return new KafkaBenchmarkDriver();
  }

  @Test
  void everyOmbFieldIsAccepted() throws Exception {
    Path file =
        write(
            "all-fields.yaml",
            """
            name: Kafka
            driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver
            replicationFactor: 3
            reset: true
            topicConfig: |
              min.insync.replicas=2
            commonConfig: |
              bootstrap.servers=localhost:9092
            producerConfig: |
              acks=all
            consumerConfig: |
              auto.offset.reset=latest
            """);
    KafkaSettings settings = KafkaSettings.resolve(settings(file, Map.of()), Map.of());
    assertEquals(Optional.of((short) 3), settings.replicationFactor());
    assertTrue(settings.reset());
    assertEquals(Map.of("min.insync.replicas", "2"), settings.topicConfig());
    assertEquals("all", settings.producer().get("acks"));
    // The file's choice stands; the driver's defaults fill only what the file leaves out.
    assertEquals("latest", settings.consumer().get("auto.offset.reset"));
    assertEquals("false", settings.consumer().get("enable.auto.commit"));
    assertFalse(settings.autoCommit());
  }

  @Test
  void misspelledClientPropertyIsRejectedWithItsLine() throws IOException {
    Path file =
        write(
            "property.yaml",
            """
            name: Kafka
            commonConfig: |
              bootstrap.servers=127.0.0.1:9092
            producerConfig: |
              acks=all
              lingr.ms=5
            """);
    DriverConfigException e = rejected(file, Map.of());
    assertEquals(
        file
            + ":6: field 'producerConfig': unknown Kafka producer property 'lingr.ms' (did you"
            + " mean 'linger.ms'?)",
        e.getMessage());
  }

  @Test
  void unknownDriverSetKeyIsRejected() throws IOException {
    Path file = Path.of("kafka.yaml");
    DriverConfigException e = rejected(file, Map.of("bootstrap.server", "127.0.0.1:9092"));
    assertTrue(
        e.getMessage()
            .startsWith(
                "--driver-set bootstrap.server=127.0.0.1:9092: not a Kafka client property (did"
                    + " you mean"
                    + " 'bootstrap.servers'?)"),
        e.getMessage());
  }

  @Test
  void commandLineWinsOverEnvironmentWhichWinsOverTheFile() throws Exception {
    Path file = Path.of("kafka.yaml");
    Map<String, String> env = Map.of(KafkaSettings.BOOTSTRAP_ENV, "env-host:9092");

    KafkaSettings fromFile = KafkaSettings.resolve(settings(file, Map.of()), Map.of());
    assertEquals("127.0.0.1:9092", fromFile.producer().get("bootstrap.servers"));

    KafkaSettings fromEnv = KafkaSettings.resolve(settings(file, Map.of()), env);
    assertEquals("env-host:9092", fromEnv.producer().get("bootstrap.servers"));
    assertEquals("env-host:9092", fromEnv.consumer().get("bootstrap.servers"));
    assertEquals("env-host:9092", fromEnv.admin().get("bootstrap.servers"));

    KafkaSettings fromCommandLine =
        KafkaSettings.resolve(
            settings(
                file,
                Map.of(
                    "bootstrap.servers", "cli-host:9092",
                    "linger.ms", "7",
                    "replicationFactor", "3",
                    "topicConfig.min.insync.replicas", "2")),
            env);
    assertEquals("cli-host:9092", fromCommandLine.producer().get("bootstrap.servers"));
    assertEquals("cli-host:9092", fromCommandLine.consumer().get("bootstrap.servers"));
    assertEquals("cli-host:9092", fromCommandLine.admin().get("bootstrap.servers"));
    // A producer-only property reaches the producer and only the producer.
    assertEquals("7", fromCommandLine.producer().get("linger.ms"));
    assertFalse(fromCommandLine.consumer().containsKey("linger.ms"));
    assertEquals(Optional.of((short) 3), fromCommandLine.replicationFactor());
    assertEquals("2", fromCommandLine.topicConfig().get("min.insync.replicas"));
  }

  @Test
  void consumerDefaultsApplyOnlyWhereTheFileIsSilent() throws Exception {
    Path file =
        write(
            "silent.yaml",
            """
            commonConfig: |
              bootstrap.servers=127.0.0.1:9092
            """);
    KafkaSettings settings = KafkaSettings.resolve(settings(file, Map.of()), Map.of());
    assertEquals("earliest", settings.consumer().get("auto.offset.reset"));
    assertEquals("false", settings.consumer().get("enable.auto.commit"));
    assertEquals(Optional.empty(), settings.replicationFactor());
  }

  @Test
  void missingBootstrapIsExplained() throws IOException {
    Path file = write("nobootstrap.yaml", "name: Kafka\n");
    DriverConfigException e = rejected(file, Map.of());
    assertTrue(e.getMessage().contains("bootstrap.servers is not set"), e.getMessage());
  }
}
