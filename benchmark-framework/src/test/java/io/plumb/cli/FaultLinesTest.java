package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.fault.FaultOutcome;
import io.plumb.fault.Unavailability;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultLinesTest {

  @Test
  void aFaultLineStatesTheWorstPartitionAndProducerEvenWhenShorterThanTheStallLimit() {
    Unavailability figures =
        new Unavailability(
            0.3,
            "orders/2",
            1,
            true,
            0.05,
            0.02,
            "7",
            true,
            0.01,
            new Unavailability.Goodput(7.0, 0.1, List.of(2_000.0, 1_500.0, 2_000.0)));
    FaultOutcome fault =
        new FaultOutcome(
                1,
                "kill",
                "leader",
                List.of("2"),
                "leader of partition 0",
                6,
                10.0,
                6.0,
                16.0,
                null,
                true,
                0.4,
                3.0,
                0,
                0,
                0,
                0,
                0,
                null,
                null,
                null,
                null)
            .withUnavailability(figures);

    String line = FaultLines.describe(fault);

    assertTrue(
        line.contains(
            "unavailable worst partition orders/2 0.300 s, 1 partition affected (over 0.050 s),"
                + " worst producer 7 0.020 s (resolution 0.010 s), lowest goodput 1,500 msg/s per"
                + " 0.1 s"),
        line);
    assertTrue(!line.contains("never"), line);
  }

  @Test
  void aProducerStillUnavailableAtTheEndIsSaidSoWhenTheDriverNamesNoPartitions() {
    Unavailability figures =
        new Unavailability(
            null,
            null,
            0,
            true,
            0.01,
            9.995,
            "40",
            false,
            0.01,
            new Unavailability.Goodput(7.0, 0.1, List.of(1_000.0, 0.0)));
    FaultOutcome fault =
        new FaultOutcome(
                1,
                "kill",
                "leader",
                List.of("2"),
                null,
                10,
                5.0,
                10.0,
                15.0,
                null,
                true,
                10.0,
                null,
                10_000,
                0,
                0,
                0,
                0,
                null,
                null,
                null,
                null)
            .withUnavailability(figures);

    String line = FaultLines.describe(fault);

    assertFalse(fault.availableAgain(), fault.toString());
    assertTrue(
        line.contains(
            "per partition unknown (the driver names no partitions), worst producer 40 9.995 s"
                + " (not available again by the end)"),
        line);
  }
}
