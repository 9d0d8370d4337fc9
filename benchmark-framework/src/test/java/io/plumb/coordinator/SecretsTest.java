package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;

/** A result's copy of the driver file keeps its settings and loses its secrets. */
class SecretsTest {
  private static final YAMLMapper YAML = new YAMLMapper();

  @Test
  void aDriverFilesSecretsAreMaskedAndEverythingElseKept() throws Exception {
    JsonNode file =
        YAML.readTree(
            """
            name: Kafka-SASL
            password: hunter2
            client:
              authToken: abc.def
              serviceUrl: pulsar+ssl://broker:6651
            amqpUris:
              - amqp://bench:s3cret@10.0.0.1:5672
              - amqp://10.0.0.2:5672
            commonConfig: |
              bootstrap.servers=b1:9092
              security.protocol=SASL_SSL
              sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";
              ssl.truststore.password=changeit
            """);

    JsonNode masked = Secrets.maskTree(file);

    assertEquals("Kafka-SASL", masked.path("name").asText());
    assertEquals("***", masked.path("password").asText());
    assertEquals("***", masked.path("client").path("authToken").asText());
    assertEquals("pulsar+ssl://broker:6651", masked.path("client").path("serviceUrl").asText());
    assertEquals("amqp://bench:***@10.0.0.1:5672", masked.path("amqpUris").get(0).asText());
    assertEquals("amqp://10.0.0.2:5672", masked.path("amqpUris").get(1).asText());
    assertEquals(
        """
        bootstrap.servers=b1:9092
        security.protocol=SASL_SSL
        sasl.jaas.config=***
        ssl.truststore.password=***
        """,
        masked.path("commonConfig").asText());
    String all = masked.toString();
    for (String secret :
        new String[] {"hunter2", "abc.def", "s3cret", "password=\\\"p", "changeit"}) {
      assertFalse(all.contains(secret), secret + " in " + all);
    }
    assertEquals("hunter2", file.path("password").asText(), "the parsed file is left as it was");
  }

  @Test
  void overridesAreMaskedByKeyAndByUri() {
    assertEquals("***", Secrets.mask("client.authToken", "abc"));
    assertEquals("amqp://u:***@host:5672", Secrets.mask("amqpUris", "amqp://u:pw@host:5672"));
    assertEquals("5", Secrets.mask("linger.ms", "5"));
  }
}
