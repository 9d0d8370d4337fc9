package io.plumb.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A comparison says so when its brokers shared the load generator's host, and only then. */
class SharedHostCaveatTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void brokersSampledOnTheGeneratorsHostGiveTheCaveatNamingThem() throws Exception {
    JsonNode kafka =
        JSON.readTree(
            "{\"resources\":{\"hostCores\":2,\"summary\":{\"brokers\":{\"kafka\":{\"cpuCores\":0.8}}}}}");
    JsonNode rabbit =
        JSON.readTree(
            "{\"resources\":{\"hostCores\":2,\"summary\":{\"brokers\":{\"rabbitmq-1\":{},"
                + "\"rabbitmq-2\":{}}}}}");
    JsonNode remote =
        JSON.readTree("{\"resources\":{\"hostCores\":2,\"summary\":{\"brokers\":{}}}}");

    assertEquals(
        Optional.of(
            "the brokers ran on the load generator's host in 2 of 3 runs (kafka, rabbitmq-1,"
                + " rabbitmq-2, 2 cores): each broker's figures include the generator's use of the"
                + " same cores, which costs a broker that needs more of them more; they compare the"
                + " configurations as they ran there, not their capacities on hosts of their own"),
        SharedHostCaveat.of(List.of(kafka, rabbit, remote)));
    assertTrue(SharedHostCaveat.of(List.of(remote, JSON.readTree("{}"))).isEmpty());
  }
}
