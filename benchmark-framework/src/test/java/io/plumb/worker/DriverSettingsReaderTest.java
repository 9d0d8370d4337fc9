package io.plumb.worker;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriverSettingsReaderTest {

  enum Mode {
    CORE,
    JETSTREAM;

    @Override
    public String toString() {
      return name().toLowerCase();
    }
  }

  private static final String YAML =
      """
      name: test
      driverClass: x.Driver
      url: nats://127.0.0.1:4222
      replicas: 3
      mode: jetstream
      client:
        ioThreads: 4
        tls: true
      uris: [a, b]
      commonConfig: |
        bootstrap.servers=localhost:9092
        acks=all
      """;

  private static DriverSettings settings(String yaml, Map<String, String> overrides)
      throws DriverConfigException {
    return DriverSettingsReader.fromText("d.yaml", yaml, overrides);
  }

  @Test
  void readsTypedValuesNestedSectionsListsAndPropertyBlocks() throws DriverConfigException {
    DriverSettings s = settings(YAML, Map.of());
    assertEquals("nats://127.0.0.1:4222", s.string("url", "default"));
    assertEquals(3, s.integer("replicas", 1));
    assertEquals(Mode.JETSTREAM, s.enumValue("mode", Mode.class, Mode.CORE));
    assertEquals(List.of("a", "b"), s.list("uris", List.of()));
    assertEquals(7L, s.longValue("absent", 7L));
    assertEquals(
        Map.of("bootstrap.servers", "localhost:9092", "acks", "all"), s.properties("commonConfig"));
    DriverSettings client = s.section("client");
    assertEquals(4, client.integer("ioThreads", 1));
    assertEquals(true, client.bool("tls", false));
    client.finish();
    s.finish();
  }

  @Test
  void nameAndDriverClassAreTheFrameworksAndCountAsRead() throws DriverConfigException {
    // The framework read them to choose the driver: a driver that reads only its own fields
    // finishes without being told they are unknown.
    assertDoesNotThrow(settings("name: x\ndriverClass: a.B\n", Map.of())::finish);
  }

  @Test
  void misspelledFieldIsOneLineWithFileLineSuggestionAndAllowedFields() throws Exception {
    DriverSettings s = settings("name: x\nurll: nats://a\n", Map.of());
    s.string("url");
    DriverConfigException e = assertThrows(DriverConfigException.class, s::finish);
    assertEquals(
        "d.yaml:2: unknown field 'urll' (did you mean 'url'?); allowed: driverClass, name, url",
        e.getMessage());
  }

  @Test
  void misspelledNestedFieldNamesItsPathAndLine() throws Exception {
    DriverSettings s = settings(YAML, Map.of());
    DriverSettings client = settings("client:\n  ioThread: 4\n", Map.of()).section("client");
    client.integer("ioThreads");
    client.bool("tls");
    DriverConfigException e = assertThrows(DriverConfigException.class, client::finish);
    assertEquals(
        "d.yaml:2: unknown field 'client.ioThread' (did you mean 'client.ioThreads'?);"
            + " allowed: ioThreads, tls",
        e.getMessage());
    assertFalse(s.has("nothing"));
  }

  @Test
  void wrongTypeNamesFileLineFieldAndWhatIsAllowed() throws Exception {
    DriverSettings s = settings("replicas: three\nmode: fast\nclient:\n  tls: maybe\n", Map.of());
    assertEquals(
        "d.yaml:1: field 'replicas': expected a whole number, got 'three'",
        assertThrows(DriverConfigException.class, () -> s.integer("replicas")).getMessage());
    assertEquals(
        "d.yaml:2: field 'mode': expected one of core, jetstream, got 'fast'",
        assertThrows(DriverConfigException.class, () -> s.enumValue("mode", Mode.class))
            .getMessage());
    DriverSettings client = s.section("client");
    assertEquals(
        "d.yaml:4: field 'client.tls': expected true or false, got 'maybe'",
        assertThrows(DriverConfigException.class, () -> client.bool("tls")).getMessage());
    assertEquals(
        "d.yaml:1: field 'replicas': must be at least 1",
        s.error("replicas", "must be at least 1").getMessage());
  }

  @Test
  void overridesTakePrecedenceOverFileAndEnvironmentAndAreCheckedTheSameWay() throws Exception {
    DriverSettings s =
        settings(YAML, Map.of("url", "nats://other:4222", "client.ioThreads", "8"))
            .withEnvironment(
                Map.of("URL", "nats://env:1", "REPLICAS", "5"),
                Map.of("URL", "url", "REPLICAS", "replicas"));
    assertEquals("nats://other:4222", s.string("url", "default"));
    assertEquals(5, s.integer("replicas", 1));
    assertEquals(8, s.section("client").integer("ioThreads", 1));

    assertEquals(
        "d.yaml:4: field 'replicas': expected a whole number from -2147483648 to 2147483647,"
            + " got 5000000000",
        assertThrows(
                DriverConfigException.class,
                () ->
                    settings(YAML.replace("replicas: 3", "replicas: 5000000000"), Map.of())
                        .integer("replicas"))
            .getMessage());
    DriverSettings bad = settings(YAML, Map.of("client.ioThreads", "many"));
    assertEquals(
        "--driver-set client.ioThreads=many: expected a whole number, got 'many'",
        assertThrows(DriverConfigException.class, () -> bad.section("client").integer("ioThreads"))
            .getMessage());
  }

  @Test
  void unknownOverrideKeyIsRejectedNamingDriverSet() throws Exception {
    DriverSettings s = settings("url: a\n", Map.of("client.ioThread", "4"));
    s.string("url");
    s.section("client").integer("ioThreads");
    DriverConfigException e = assertThrows(DriverConfigException.class, s::finish);
    assertEquals(
        "--driver-set client.ioThread=4: unknown field 'client.ioThread'"
            + " (did you mean 'client.ioThreads'?); allowed: client, client.ioThreads, url",
        e.getMessage());
  }

  @Test
  void emptyFileHasOnlyDefaults() throws Exception {
    DriverSettings s = settings("# only a comment\n", Map.of());
    assertEquals("fallback", s.string("url", "fallback"));
    assertEquals(Map.of(), s.properties("commonConfig"));
    s.section("client").finish();
    s.finish();
  }

  @Test
  void propertyErrorsPointAtTheKeysLineInsideABlock() throws Exception {
    DriverSettings s = settings(YAML, Map.of());
    s.properties("commonConfig");
    assertEquals(
        "d.yaml:12: field 'commonConfig': bad acks",
        s.error("commonConfig", "acks", "bad acks").getMessage());
  }

  @Test
  void aNumberThatIsNotFiniteNamesItsFileLineAndField() {
    assertEquals(
        "d.yaml:3: field 'client.ioThreads': expected a finite number, got .inf",
        assertThrows(
                DriverConfigException.class,
                () -> settings("name: x\nclient:\n  ioThreads: .inf\n", Map.of()))
            .getMessage());
    assertEquals(
        "d.yaml:1: field 'weights[1]': expected a finite number, got .NaN",
        assertThrows(DriverConfigException.class, () -> settings("weights: [1, .NaN]\n", Map.of()))
            .getMessage());
  }

  @Test
  void syntaxErrorsAndDuplicateKeysAreOneLine() {
    assertEquals(
        "d.yaml:2: field 'url' appears twice (first on line 1)",
        assertThrows(DriverConfigException.class, () -> settings("url: a\nurl: b\n", Map.of()))
            .getMessage());
    assertEquals(
        "d.yaml: expected a YAML mapping of field: value lines",
        assertThrows(DriverConfigException.class, () -> settings("- a\n- b\n", Map.of()))
            .getMessage());
  }
}
