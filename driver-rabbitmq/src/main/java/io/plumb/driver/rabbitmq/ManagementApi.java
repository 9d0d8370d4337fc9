package io.plumb.driver.rabbitmq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * Reads topology back from the management plugin's HTTP API (port 15672 on the AMQP host), which
 * AMQP itself cannot do: used to learn a topic's partition count on a worker that did not create
 * it.
 */
final class ManagementApi {
  static final int PORT = 15672;

  private final ConnectionFactory factory;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  ManagementApi(ConnectionFactory factory) {
    this.factory = factory;
  }

  /** GETs {@code /api/<path>} and parses the JSON answer. */
  JsonNode get(String path) throws IOException, InterruptedException {
    String auth =
        Base64.getEncoder()
            .encodeToString(
                (factory.getUsername() + ":" + factory.getPassword())
                    .getBytes(StandardCharsets.UTF_8));
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://" + factory.getHost() + ":" + PORT + "/api/" + path))
            .header("Authorization", "Basic " + auth)
            .timeout(Duration.ofSeconds(10))
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(
          "management API " + path + " answered " + response.statusCode() + ": " + response.body());
    }
    return new ObjectMapper().readTree(response.body());
  }

  String vhostPath() {
    return URLEncoder.encode(factory.getVirtualHost(), StandardCharsets.UTF_8);
  }

  int exchangeIntArgument(String exchange, String argument)
      throws IOException, InterruptedException {
    JsonNode value;
    try {
      value =
          get("exchanges/"
                  + vhostPath()
                  + "/"
                  + URLEncoder.encode(exchange, StandardCharsets.UTF_8))
              .path("arguments")
              .path(argument);
    } catch (IOException e) {
      throw new IOException(
          "topic "
              + exchange
              + " was created elsewhere and its partition count could not be read from the"
              + " management API (enable rabbitmq_management on port "
              + PORT
              + "): "
              + e.getMessage(),
          e);
    }
    if (!value.canConvertToInt()) {
      throw new IOException("exchange " + exchange + " has no " + argument + " argument");
    }
    return value.asInt();
  }
}
