package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The single local broker the default tests run against ({@code deploy/local/kafka.sh start}), or
 * the one {@code PLUMB_KAFKA_BOOTSTRAP} names. (LocalKafkaCluster is the three-node one.)
 */
final class LocalKafka {
  static final String BOOTSTRAP =
      System.getenv().getOrDefault("PLUMB_KAFKA_BOOTSTRAP", "127.0.0.1:9092");

  private LocalKafka() {}

  /**
   * An admin client of the broker, which reads its state back apart from the driver; fails the test
   * in one line naming the start command when no broker answers within 10 s.
   */
  static Admin admin() {
    Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP));
    try {
      admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      admin.close();
      fail(
          "no Kafka broker at "
              + BOOTSTRAP
              + " (PLUMB_KAFKA_BOOTSTRAP): start it with deploy/local/kafka.sh start ("
              + e
              + ")");
    }
    return admin;
  }
}
