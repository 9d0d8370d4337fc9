package io.plumb.driver.redis;

import io.plumb.testkit.UnreachableBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class RedisUnreachableTest {
  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut(@TempDir Path dir) {
    UnreachableBroker.assertReported(
        dir, "redis.yaml", port -> "redisPort=" + port, "deploy/local/redis.sh start");
  }
}
