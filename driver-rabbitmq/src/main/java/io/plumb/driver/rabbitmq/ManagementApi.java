package io.plumb.driver.rabbitmq;

import static java.util.stream.Collectors.joining;

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Reads topology back from the management plugin's HTTP API, which neither AMQP nor the stream
 * protocol can do: a topic's partition count on a worker that did not create it, the cluster's
 * running nodes, which nodes hold each queue or stream, and which one leads it. Asks the endpoint
 * that answered last and, when it does not answer (its node is down, frozen or cut off), the next.
 */
final class ManagementApi {
  static final int PORT = RabbitMqConfig.MANAGEMENT_PORT;

  /** How often {@link #awaitCopies} asks again, and for how long at most. */
  private static final long POLL_MILLIS = 200;

  private static final Duration COPIES_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

  private final List<URI> endpoints;
  private final String username;
  private final String password;
  private final String virtualHost;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
  // The endpoint that answered last: asked first next time.
  private volatile int preferred;

  /**
   * @param endpoints base URIs of the management plugin ({@code http://host:15672}), in order of
   *     preference
   */
  ManagementApi(List<URI> endpoints, String username, String password, String virtualHost) {
    if (endpoints.isEmpty()) {
      throw new IllegalArgumentException("no management endpoint");
    }
    this.endpoints = List.copyOf(endpoints);
    this.username = username;
    this.password = password;
    this.virtualHost = virtualHost;
  }

  /** The API on port 15672 of {@code host}. */
  ManagementApi(String host, String username, String password, String virtualHost) {
    this(List.of(URI.create("http://" + host + ":" + PORT)), username, password, virtualHost);
  }

  /** The API on the AMQP factory's host, with its credentials and virtual host. */
  ManagementApi(ConnectionFactory factory) {
    this(factory.getHost(), factory.getUsername(), factory.getPassword(), factory.getVirtualHost());
  }

  /** Where the API answers, for messages. */
  String address() {
    return endpoints.stream().map(u -> u.getHost() + ":" + u.getPort()).collect(joining(","));
  }

  /** The endpoint that answered last (the first, before any answered), for messages. */
  String answering() {
    URI u = endpoints.get(preferred);
    return u.getHost() + ":" + u.getPort();
  }

  /** GETs {@code /api/<path>} and parses the JSON answer. */
  JsonNode get(String path) throws IOException, InterruptedException {
    return get(path, REQUEST_TIMEOUT);
  }

  /**
   * GETs {@code /api/<path>} from the first endpoint that answers within {@code timeout}, and
   * parses the JSON answer. An endpoint that cannot be reached, does not answer in time or answers
   * 5xx is passed over; any other answer than 200 is an error.
   */
  JsonNode get(String path, Duration timeout) throws IOException, InterruptedException {
    return new ObjectMapper().readTree(send("GET", path, null, timeout, 200));
  }

  /** PUTs a JSON body to {@code /api/<path>} (201 created or 204 replaced). */
  void put(String path, Object body) throws IOException, InterruptedException {
    send("PUT", path, new ObjectMapper().writeValueAsString(body), REQUEST_TIMEOUT, 201, 204);
  }

  /** DELETEs {@code /api/<path>}; one already gone (404) is not an error. */
  void delete(String path) throws IOException, InterruptedException {
    send("DELETE", path, null, REQUEST_TIMEOUT, 204, 404);
  }

  /**
   * Sends one request to the first endpoint that answers within {@code timeout} and returns the
   * answer's body. An endpoint that cannot be reached, does not answer in time or answers 5xx is
   * passed over; an answer not in {@code expected} is an error.
   */
  private String send(String method, String path, String json, Duration timeout, int... expected)
      throws IOException, InterruptedException {
    String auth =
        Base64.getEncoder()
            .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    IOException unreachable = null;
    int first = preferred;
    for (int i = 0; i < endpoints.size(); i++) {
      int index = (first + i) % endpoints.size();
      URI base = endpoints.get(index);
      HttpRequest.Builder request =
          HttpRequest.newBuilder(base.resolve("/api/" + path))
              .header("Authorization", "Basic " + auth)
              .timeout(timeout);
      if (json == null) {
        request.method(method, HttpRequest.BodyPublishers.noBody());
      } else {
        request
            .header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(json));
      }
      HttpResponse<String> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      } catch (IOException e) {
        unreachable = new IOException(base + ": " + e, e);
        continue;
      }
      if (response.statusCode() >= 500) {
        unreachable =
            new IOException(base + " answered " + response.statusCode() + ": " + response.body());
        continue;
      }
      preferred = index;
      if (Arrays.stream(expected).noneMatch(code -> code == response.statusCode())) {
        throw new IOException(
            "management API "
                + (method.equals("GET") ? "" : method + " ")
                + path
                + " answered "
                + response.statusCode()
                + ": "
                + response.body());
      }
      return response.body();
    }
    throw new IOException(
        "management API " + path + ": no endpoint answered; last: " + unreachable.getMessage(),
        unreachable);
  }

  String vhostPath() {
    return URLEncoder.encode(virtualHost, StandardCharsets.UTF_8);
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
              + " management API at "
              + address()
              + " (enable rabbitmq_management): "
              + e.getMessage(),
          e);
    }
    if (!value.canConvertToInt()) {
      throw new IOException("exchange " + exchange + " has no " + argument + " argument");
    }
    return value.asInt();
  }

  /** The names of the cluster's nodes that the broker reports running. */
  List<String> runningNodes() throws IOException, InterruptedException {
    List<String> running = new ArrayList<>();
    for (JsonNode node : get("nodes?columns=name,running")) {
      if (node.path("running").asBoolean()) {
        running.add(node.path("name").asText());
      }
    }
    return running;
  }

  /**
   * Node names by the address of their stream-protocol listeners: {@code ip:port}, and {@code
   * *:port} where only one node listens on that port.
   */
  Map<String, String> streamListenerNodes() throws IOException, InterruptedException {
    Map<String, String> byAddress = new HashMap<>();
    Map<Integer, Set<String>> nodesByPort = new HashMap<>();
    for (JsonNode listener : get("overview?columns=listeners").path("listeners")) {
      if ("stream".equals(listener.path("protocol").asText())) {
        String node = listener.path("node").asText();
        int port = listener.path("port").asInt();
        byAddress.put(listener.path("ip_address").asText() + ":" + port, node);
        nodesByPort.computeIfAbsent(port, p -> new HashSet<>()).add(node);
      }
    }
    nodesByPort.forEach(
        (port, nodes) -> {
          if (nodes.size() == 1) {
            byAddress.put("*:" + port, nodes.iterator().next());
          }
        });
    return byAddress;
  }

  /** The version the broker reports for itself. */
  String version() throws IOException, InterruptedException {
    return get("overview?columns=rabbitmq_version").path("rabbitmq_version").asText();
  }

  /**
   * The copies of a queue or stream as the broker reports them, or empty while it has not reported
   * them yet: a stream's members appear with its first statistics, up to 5 s after it was created.
   */
  Optional<QueueCopies> copies(String queue) throws IOException, InterruptedException {
    JsonNode q =
        get("queues/" + vhostPath() + "/" + URLEncoder.encode(queue, StandardCharsets.UTF_8));
    String type = q.path("type").asText();
    String node = q.path("node").asText(null);
    List<String> members = new ArrayList<>();
    if (q.has("members")) {
      // Quorum queues and streams: every node holding a Raft member or a stream replica.
      q.path("members").forEach(member -> members.add(member.asText()));
    } else if ("stream".equals(type)) {
      return Optional.empty();
    } else if (node != null) {
      // A classic queue lives on one node, plus any mirrors a policy added.
      members.add(node);
      q.path("slave_nodes").forEach(mirror -> members.add(mirror.asText()));
    }
    // A stream's record names no leader; its node is the leader's (where its writer runs).
    String leader = q.path("leader").asText(node);
    return Optional.of(new QueueCopies(queue, type, List.copyOf(members), leader));
  }

  /**
   * The node leading a queue now, as the broker names it ({@code r1@localhost}): a quorum queue's
   * Raft leader, a stream's leader, a classic queue's own node; empty when the queue does not exist
   * or names no leader (an election under way). Each endpoint gets {@code timeout} to answer.
   */
  Optional<String> leader(String queue, Duration timeout) throws IOException, InterruptedException {
    JsonNode q;
    try {
      q =
          get(
              "queues/"
                  + vhostPath()
                  + "/"
                  + URLEncoder.encode(queue, StandardCharsets.UTF_8)
                  + "?columns=name,type,leader,node",
              timeout);
    } catch (IOException e) {
      if (e.getMessage().contains(" answered 404")) {
        return Optional.empty();
      }
      throw e;
    }
    String leader = q.path("leader").asText("");
    if (leader.isBlank()) {
      leader = q.path("node").asText("");
    }
    return leader.isBlank() ? Optional.empty() : Optional.of(leader);
  }

  /** The names of the queues of the virtual host, as the broker lists them. */
  List<String> queueNames() throws IOException, InterruptedException {
    List<String> names = new ArrayList<>();
    for (JsonNode q : get("queues/" + vhostPath() + "?columns=name")) {
      names.add(q.path("name").asText());
    }
    return names;
  }

  /**
   * {@link #copies} once the broker reports {@code expected} of them (a stream's after its first
   * statistics, a mirrored queue's once its mirrors started), waiting at most 30 s; after that, the
   * copies it reports, if any.
   */
  QueueCopies awaitCopies(String queue, int expected) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + COPIES_TIMEOUT.toNanos();
    while (true) {
      Optional<QueueCopies> copies = copies(queue);
      if (copies.isPresent() && copies.get().members().size() >= expected) {
        return copies.get();
      }
      if (System.nanoTime() > deadline) {
        if (copies.isPresent()) {
          return copies.get();
        }
        throw new IOException(
            "the management API at "
                + address()
                + " reported no members for "
                + queue
                + " within "
                + COPIES_TIMEOUT.toSeconds()
                + " s");
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
    }
  }
}
