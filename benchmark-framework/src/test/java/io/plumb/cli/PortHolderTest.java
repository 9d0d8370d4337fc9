package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PortHolderTest {

  @Test
  void namesAJvmByItsMainClassPastOptionsThatTakeAValue() {
    assertEquals(
        "java org.apache.pulsar.PulsarStandaloneStarter",
        PortHolder.program(
            List.of(
                "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
                "-Xmx2g",
                "--add-opens",
                "java.base/java.io=ALL-UNNAMED",
                "-cp",
                "a.jar:b.jar",
                "org.apache.pulsar.PulsarStandaloneStarter",
                "--config",
                "standalone.conf")));
    assertEquals("java -jar app.jar", PortHolder.program(List.of("java", "-jar", "app.jar", "x")));
    assertEquals("redis-server", PortHolder.program(List.of("/usr/bin/redis-server", "*:6379")));
  }

  @Test
  void saysWhatToDoAboutHoldersPlumbKnows() {
    assertEquals(
        Optional.of("another Plumb worker"),
        PortHolder.known("pid 7, java io.plumb.cli.WorkerMain"));
    assertEquals(
        Optional.of("Pulsar's web service and admin API, deploy/local/pulsar.sh"),
        PortHolder.known("pid 7, java org.apache.pulsar.PulsarStandaloneStarter"));
    assertEquals(Optional.empty(), PortHolder.known("pid 7, python3"));
  }
}
