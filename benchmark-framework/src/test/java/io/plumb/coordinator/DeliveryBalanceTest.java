package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.coordinator.DeliveryBalance.DrainOutcome;
import org.junit.jupiter.api.Test;

class DeliveryBalanceTest {
  @Test
  void missingMessagesAreLostOnlyWhenConsumersHadStopped() {
    assertEquals(new DeliveryBalance(120, 0), DeliveryBalance.of(120, DrainOutcome.STALLED));
    assertEquals(new DeliveryBalance(0, 0), DeliveryBalance.of(0, DrainOutcome.COMPLETE));
  }

  @Test
  void missingMessagesWhileConsumersCatchUpAreInFlightNotLost() {
    assertEquals(
        new DeliveryBalance(0, 39_566), DeliveryBalance.of(39_566, DrainOutcome.STILL_RECEIVING));
  }

  @Test
  void aRunCutShortCallsNothingLost() {
    assertEquals(new DeliveryBalance(0, 500), DeliveryBalance.of(500, DrainOutcome.NOT_DRAINED));
  }

  @Test
  void afterAFinalReadThatSawTheEndNothingIsInFlight() {
    assertEquals(new DeliveryBalance(500, 0), DeliveryBalance.of(500, DrainOutcome.READ_TO_END));
  }
}
