package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A durability file's settings are in force on the server and written to its config file, so a
 * server restarted after a kill or a power loss keeps them (deploy/local/redis.sh start, whose
 * server runs from a config file).
 */
class DurabilityKeptTest {
  private static final int PORT =
      Integer.parseInt(System.getenv().getOrDefault("PLUMB_REDIS_PORT", "6379"));

  @Test
  void aofNoIsInForceAndInTheConfigFile() throws Exception {
    Map<String, String> overrides = PORT == 6379 ? Map.of() : Map.of("redisPort", "" + PORT);
    try (Jedis admin = new Jedis("127.0.0.1", PORT)) {
      admin.configSet("appendonly", "no");
      admin.configSet("appendfsync", "always");
      try (RedisBenchmarkDriver driver = new RedisBenchmarkDriver()) {
        driver.initialize(DriverSettingsReader.config(Path.of("redis-aof-no.yaml"), overrides));
        Map<String, String> facts = driver.brokerFacts();
        assertEquals("no", facts.get("redis.appendfsync"), facts.toString());
        assertEquals("yes", facts.get("redis.appendonly"), facts.toString());
        assertTrue(facts.get("redis.configRewrite").startsWith("every server"), facts.toString());
        assertEquals("no", admin.configGet("appendfsync").get("appendfsync"));
        List<String> config = Files.readAllLines(configFile(admin));
        assertTrue(config.contains("appendonly yes"), config.toString());
        assertTrue(config.contains("appendfsync no"), config.toString());
      } finally {
        // Leave the server, and its config file, as deploy/local/redis.sh starts it.
        admin.configSet("appendonly", "no");
        admin.configSet("appendfsync", "everysec");
        admin.configRewrite();
      }
    }
  }

  private static Path configFile(Jedis admin) {
    for (String line : admin.info("server").split("\r?\n")) {
      if (line.startsWith("config_file:")) {
        return Path.of(line.substring("config_file:".length()).strip());
      }
    }
    throw new AssertionError("INFO server names no config file");
  }
}
