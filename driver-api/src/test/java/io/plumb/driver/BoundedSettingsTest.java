package io.plumb.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** DriverSettings' getters with a lower bound. */
class BoundedSettingsTest {

  private static DriverSettings file(Map<String, ?> values) {
    return DriverSettings.of("my.yaml", values, Map.of("depth", 3, "maxBytes", 4), Map.of());
  }

  @Test
  void aValueAtTheBoundOrAboveIsReadAndTheFallbackFillsAGap() throws Exception {
    assertEquals(1, file(Map.of("depth", 1)).integerAtLeast("depth", 1, 16));
    assertEquals(16, file(Map.of()).integerAtLeast("depth", 1, 16));
    assertEquals(-1L, file(Map.of("maxBytes", -1)).longAtLeast("maxBytes", -1L, 0L));
  }

  @Test
  void aValueBelowTheBoundIsRefusedWithItsLine() {
    DriverConfigException e =
        assertThrows(
            DriverConfigException.class,
            () -> file(Map.of("depth", 0)).integerAtLeast("depth", 1, 16));
    assertEquals("my.yaml:3: field 'depth': must be >= 1, was 0", e.getMessage());
    e =
        assertThrows(
            DriverConfigException.class,
            () -> file(Map.of("maxBytes", -2)).longAtLeast("maxBytes", -1L, -1L));
    assertEquals("my.yaml:4: field 'maxBytes': must be >= -1, was -2", e.getMessage());
  }
}
