package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class UnavailabilityHeadlineTest {
  private static final Unavailability.Goodput GOODPUT =
      new Unavailability.Goodput(7.0, 0.1, List.of(2_000.0));

  private static Unavailability figures(
      Double partition, int affected, Double producer, double bar) {
    return new Unavailability(
        partition, "t/0", affected, true, bar, producer, "0", true, 0.01, GOODPUT);
  }

  private static Double headline(Unavailability figures) {
    FaultOutcome none =
        new FaultOutcome(
            1,
            "kill",
            "leader",
            List.of("1"),
            null,
            10,
            15.0,
            10.0,
            25.0,
            null,
            true,
            0.0,
            null,
            0,
            0,
            0,
            0,
            0,
            null,
            null,
            null,
            null);
    return none.withUnavailability(figures).unavailableSeconds();
  }

  @Test
  void sendsThatFailedWithoutAPartitionMakeTheProducerTheHeadline() {
    // Pulsar: the partition's own window ended after 5.45 s, but every send after it timed out
    // before the client named a partition, so its one producer saw nothing acknowledged for 35 s.
    assertEquals(35.4, headline(figures(5.45, 1, 35.4, 0.3)));
  }

  @Test
  void theWorstPartitionStaysTheHeadlineWhenItIsLonger() {
    // Kafka, 8 partitions: the producer's other partitions acknowledged all along.
    assertEquals(9.7, headline(figures(9.7, 2, 0.02, 0.3)));
  }

  @Test
  void aProducerWindowWithinTheUsualSlownessIsNotUnavailability() {
    assertNull(headline(figures(0.1, 0, 0.25, 0.3)));
  }

  @Test
  void aProducerAloneBeyondTheBarIsUnavailabilityWhenNoPartitionWasNamed() {
    assertEquals(2.0, headline(figures(null, 0, 2.0, 0.3)));
  }
}
