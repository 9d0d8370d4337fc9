package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The backlog quota and TTL facts from the broker's runtime configuration (no broker needed). */
class BrokerLimitsTest {

  @Test
  void pulsarFourDefaultsSetNoQuotaAndNoTtl() {
    Map<String, String> config =
        Map.of(
            "backlogQuotaDefaultLimitBytes", "-1",
            "backlogQuotaDefaultLimitGB", "-1.0",
            "backlogQuotaDefaultLimitSecond", "-1",
            "backlogQuotaDefaultRetentionPolicy", "producer_request_hold",
            "ttlDurationDefaultInSeconds", "0");
    assertEquals(
        "none (broker defaults backlogQuotaDefaultLimitBytes=-1, backlogQuotaDefaultLimitSecond=-1)",
        BrokerLimits.quota(config));
    assertEquals("none (broker default ttlDurationDefaultInSeconds=0)", BrokerLimits.ttl(config));
  }

  @Test
  void aSizeOrTimeLimitIsNamedWithItsPolicy() {
    assertEquals(
        "backlogQuotaDefaultLimitBytes=1073741824, backlogQuotaDefaultRetentionPolicy="
            + "producer_exception (broker defaults)",
        BrokerLimits.quota(
            Map.of(
                "backlogQuotaDefaultLimitBytes", "1073741824",
                "backlogQuotaDefaultLimitSecond", "-1",
                "backlogQuotaDefaultRetentionPolicy", "producer_exception")));
    // The deprecated GB limit, when set, is the one the broker applies.
    assertEquals(
        "backlogQuotaDefaultLimitGB=10.0, backlogQuotaDefaultLimitSecond=3600,"
            + " backlogQuotaDefaultRetentionPolicy=producer_request_hold (broker defaults)",
        BrokerLimits.quota(
            Map.of(
                "backlogQuotaDefaultLimitBytes", "-1",
                "backlogQuotaDefaultLimitGB", "10.0",
                "backlogQuotaDefaultLimitSecond", "3600",
                "backlogQuotaDefaultRetentionPolicy", "producer_request_hold")));
    assertEquals(
        "600 s (broker default ttlDurationDefaultInSeconds=600)",
        BrokerLimits.ttl(Map.of("ttlDurationDefaultInSeconds", "600")));
  }
}
