package io.plumb.driver.redis;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Redis server says about its replication ({@code INFO replication}): its role and, on a
 * primary, the replicas connected to it. A replica holds a copy of the data once its state is
 * {@code online} (a replica still loading its first full sync holds none yet).
 *
 * @param role {@code master} or {@code slave}, as Redis says it
 * @param onlineReplicas {@code host:port} of each replica in state {@code online}
 * @param primaryOfReplica for a replica, its primary's {@code host:port}; otherwise null
 */
record Replication(String role, List<String> onlineReplicas, String primaryOfReplica) {

  static Replication parse(String info) {
    String role = "unknown";
    String primaryHost = null;
    String primaryPort = null;
    List<String> online = new ArrayList<>();
    for (String line : info.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String key = line.substring(0, colon);
      String value = line.substring(colon + 1).strip();
      if (key.equals("role")) {
        role = value;
      } else if (key.equals("master_host")) {
        primaryHost = value;
      } else if (key.equals("master_port")) {
        primaryPort = value;
      } else if (key.matches("slave\\d+")) {
        // slave0:ip=127.0.0.1,port=6380,state=online,offset=413,lag=1
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : value.split(",")) {
          int eq = pair.indexOf('=');
          if (eq > 0) {
            fields.put(pair.substring(0, eq), pair.substring(eq + 1));
          }
        }
        if ("online".equals(fields.get("state"))) {
          online.add(fields.get("ip") + ":" + fields.get("port"));
        }
      }
    }
    String primary = primaryHost == null ? null : primaryHost + ":" + primaryPort;
    return new Replication(role, List.copyOf(online), primary);
  }

  boolean isReplica() {
    return "slave".equals(role);
  }

  /** Copies of the data: this server's and one per online replica. */
  int copies() {
    return 1 + onlineReplicas.size();
  }

  /**
   * The common broker facts: copies, the nodes holding them ({@code self} first, as the driver
   * reaches it), and the node count, which for a primary and its replicas is the same number.
   */
  Map<String, String> facts(String self) {
    List<String> nodes = new ArrayList<>();
    nodes.add(self);
    nodes.addAll(onlineReplicas);
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put(BrokerFactNames.REPLICAS, String.valueOf(copies()));
    facts.put(BrokerFactNames.REPLICA_NODES, String.join(",", nodes));
    facts.put(BrokerFactNames.NODES, String.valueOf(nodes.size()));
    facts.put("redis.role", role);
    return facts;
  }

  /**
   * A WAIT for more replicas than the server has online could never succeed: every send would fail
   * after the timeout. Neither can a WAIT sent to a replica (Redis refuses it there). {@code
   * server} is this server's address, for the message.
   */
  void refuseUnreachableWait(int asked, String server, DriverSettings file)
      throws DriverConfigException {
    if (asked == 0) {
      return;
    }
    if (isReplica()) {
      throw file.error(
          "waitReplicas",
          waitAsked(asked, server)
              + " is itself a replica (of "
              + primaryOfReplica()
              + "), where WAIT is refused: point redisPort at the primary"
              + " (deploy/local/redis.sh primary names it)");
    }
    int have = onlineReplicas().size();
    if (asked > have) {
      throw file.error(
          "waitReplicas",
          waitAsked(asked, server)
              + " has "
              + plural(copies(), "node")
              + " (a primary with "
              + plural(have, "online replica")
              + (have == 0
                  ? "; start 3: deploy/local/redis.sh start --nodes 3)"
                  : "; WAIT can count " + have + " at most)"));
    }
  }

  /** How both refusals of an unreachable WAIT start: what was asked, and of which server. */
  private static String waitAsked(int asked, String server) {
    return "asks WAIT for " + plural(asked, "replica") + " but the Redis server at " + server;
  }

  private static String plural(int n, String thing) {
    return n + " " + thing + (n == 1 ? "" : "s");
  }
}
