package io.plumb.driver.nats;

import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.ClusterInfo;
import io.nats.client.api.Replica;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import io.plumb.driver.BrokerFactNames;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A JetStream stream per topic, through the management API: created as the driver file says and
 * read back, deleted, and asked where its copies and its leader are.
 */
final class JetStreamTopics {
  private static final String PARTITIONS_PREFIX = "plumb partitions=";
  private static final int STREAM_NOT_FOUND = 10059;

  private final JetStreamManagement management;
  private final NatsDriverConfig config;

  /** The server this driver talks to: it holds and leads the streams when it is in no cluster. */
  private final Supplier<String> serverName;

  private final Set<String> created = ConcurrentHashMap.newKeySet();

  /** What the server stored for each stream created, as broker facts. */
  private final Map<String, String> storedFacts = new ConcurrentHashMap<>();

  JetStreamTopics(
      JetStreamManagement management, NatsDriverConfig config, Supplier<String> serverName) {
    this.management = management;
    this.config = config;
    this.serverName = serverName;
  }

  JetStreamManagement management() {
    return management;
  }

  /** Creates the topic's stream with the file's storage, replicas and limits, and checks it. */
  void create(String topic, int partitions) throws Exception {
    String stream = Subjects.name(topic);
    StreamConfiguration.Builder builder =
        StreamConfiguration.builder()
            .name(stream)
            .subjects(Subjects.wildcard(topic))
            // The partition count travels with the stream so producers in other workers find it.
            .description(PARTITIONS_PREFIX + partitions)
            .storageType(
                config.storageType() == NatsDriverConfig.Storage.MEMORY
                    ? StorageType.Memory
                    : StorageType.File)
            .replicas(config.replicationFactor())
            .maxBytes(config.maxBytes())
            .maxMessages(config.maxMessages());
    if (config.maxAgeSeconds() > 0) {
      builder.maxAge(Duration.ofSeconds(config.maxAgeSeconds()));
    }
    StreamInfo info = management.addStream(builder.build());
    verify(stream, info.getConfiguration());
    created.add(stream);
  }

  /** Reads back what the server stored for the stream and fails if it is not what was asked. */
  private void verify(String stream, StreamConfiguration stored) {
    String storage = stored.getStorageType() == StorageType.Memory ? "memory" : "file";
    if (!storage.equals(config.storageType().toString())
        || stored.getReplicas() != config.replicationFactor()) {
      throw new IllegalStateException(
          "stream "
              + stream
              + " has storage "
              + storage
              + " and "
              + stored.getReplicas()
              + " replicas on the server, not "
              + config.storageType()
              + " and "
              + config.replicationFactor()
              + " as configured");
    }
    storedFacts.put("nats.stream." + stream + ".storage", storage);
    storedFacts.put("nats.stream." + stream + ".replicas", String.valueOf(stored.getReplicas()));
  }

  /** The partition count recorded with the topic's stream by whichever worker created it. */
  OptionalInt recordedPartitions(String topic) throws Exception {
    String description =
        management.getStreamInfo(Subjects.name(topic)).getConfiguration().getDescription();
    if (description != null && description.startsWith(PARTITIONS_PREFIX)) {
      return OptionalInt.of(Integer.parseInt(description.substring(PARTITIONS_PREFIX.length())));
    }
    return OptionalInt.empty();
  }

  /** Deletes the topics' streams; one already gone is fine. */
  void delete(List<String> topics) throws Exception {
    for (String topic : topics) {
      try {
        created.remove(Subjects.name(topic));
        management.deleteStream(Subjects.name(topic));
      } catch (JetStreamApiException e) {
        if (e.getApiErrorCode() != STREAM_NOT_FOUND) {
          throw e;
        }
      }
    }
  }

  /**
   * What the server stored for each stream, and where it says their copies are now: per stream its
   * leader and the nodes holding it, and over all streams the fewest copies any stream has and
   * every node that holds one. Read from the server each time (a leader may move); empty before any
   * stream exists.
   */
  Map<String, String> facts() {
    Map<String, String> found = new TreeMap<>(storedFacts);
    int fewest = Integer.MAX_VALUE;
    Set<String> allNodes = new TreeSet<>();
    for (String stream : new TreeSet<>(created)) {
      StreamInfo info;
      try {
        info = management.getStreamInfo(stream);
      } catch (Exception e) {
        // Deleted since (delete), or the server is unreachable: nothing to report for it.
        continue;
      }
      List<String> holders = holders(info.getClusterInfo());
      fewest = Math.min(fewest, holders.size());
      allNodes.addAll(holders);
      ClusterInfo cluster = info.getClusterInfo();
      // A stream on a server outside any cluster has no election: that server is its leader.
      String leader =
          cluster == null ? serverName.get() : Objects.requireNonNullElse(cluster.getLeader(), "");
      found.put("nats.stream." + stream + ".leader", leader);
      found.put("nats.stream." + stream + ".replicaNodes", String.join(",", holders));
    }
    if (fewest != Integer.MAX_VALUE) {
      found.put(BrokerFactNames.REPLICAS, String.valueOf(fewest));
      found.put(BrokerFactNames.REPLICA_NODES, String.join(",", allNodes));
    }
    return found;
  }

  /**
   * The servers holding a stream: its leader, then its other replicas, as the server names them. A
   * server outside any cluster reports no cluster information: the stream is on that server alone.
   */
  private List<String> holders(ClusterInfo cluster) {
    List<String> names = new ArrayList<>();
    if (cluster == null) {
      names.add(serverName.get());
      return names;
    }
    if (cluster.getLeader() != null && !cluster.getLeader().isEmpty()) {
      names.add(cluster.getLeader());
    }
    if (cluster.getReplicas() != null) {
      for (Replica replica : cluster.getReplicas()) {
        names.add(replica.getName());
      }
    }
    return names;
  }

  /**
   * The server leading the topic's stream now, as the cluster names it (its {@code server_name},
   * e.g. {@code n2}); a server outside any cluster leads its streams itself. Empty while the stream
   * has no leader: an election under way, or the request unanswered because the server this
   * connection uses went away (it reconnects meanwhile).
   */
  Optional<String> leaderOf(String topic) throws Exception {
    StreamInfo info;
    try {
      info = management.getStreamInfo(Subjects.name(topic));
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == STREAM_NOT_FOUND) {
        throw e;
      }
      // For example "JetStream system temporarily unavailable" during an election.
      return Optional.empty();
    } catch (IOException e) {
      // No answer in time: the stream or the connection is between servers.
      return Optional.empty();
    }
    ClusterInfo cluster = info.getClusterInfo();
    if (cluster == null) {
      return Optional.of(serverName.get());
    }
    String leader = cluster.getLeader();
    return leader == null || leader.isBlank() ? Optional.empty() : Optional.of(leader);
  }
}
