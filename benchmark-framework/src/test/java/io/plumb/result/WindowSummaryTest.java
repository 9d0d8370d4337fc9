package io.plumb.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.ClientWindow;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The window facts drivers build with {@link ClientWindow} and the phrase reports make of them. */
class WindowSummaryTest {

  @Test
  void driversReportBothWindowsAsFourFactsThatReadBack() {
    Map<String, String> facts =
        ClientWindow.facts(
            ClientWindow.of(33_554_432, "bytes", "buffer.memory 33554432 bytes; set it ..."),
            ClientWindow.unbounded("mode: core NATS acknowledges nothing"));
    assertEquals(
        Map.of(
            BrokerFactNames.SEND_WINDOW, "33554432 bytes",
            BrokerFactNames.SEND_WINDOW_LIMIT, "buffer.memory 33554432 bytes; set it ...",
            BrokerFactNames.RECEIVE_WINDOW, "unbounded",
            BrokerFactNames.RECEIVE_WINDOW_LIMIT, "mode: core NATS acknowledges nothing"),
        facts);
    // "mode:" names the setting "mode".
    assertEquals(
        "send 33554432 bytes per producer (buffer.memory), receive unbounded per consumer (mode)",
        WindowSummary.describe(facts).orElseThrow());
    assertEquals(Map.of(), ClientWindow.facts(null, null));
    assertTrue(WindowSummary.describe(Map.of("nodes", "3")).isEmpty());
  }

  @Test
  void aWindowThatAdmitsNothingOrNamesNoSettingIsRefused() {
    // 0 is how many clients spell "no bound": a driver must say unbounded, not report 0.
    assertThrows(IllegalArgumentException.class, () -> ClientWindow.messages(0, "x 0"));
    assertThrows(IllegalArgumentException.class, () -> ClientWindow.messages(5, " x 5"));
    assertThrows(IllegalArgumentException.class, () -> ClientWindow.messages(5, ""));
    assertThrows(IllegalArgumentException.class, () -> ClientWindow.of(5, "MB", "x 5"));
    assertEquals("5", ClientWindow.messages(5, "x 5").value());
  }
}
