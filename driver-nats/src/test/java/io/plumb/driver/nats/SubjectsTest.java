package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Subjects are checked where the driver makes them (jnats's default, lenient rules: no whitespace),
 * since its connections skip jnats's check on each publish and subscribe.
 */
class SubjectsTest {

  @Test
  void aTopicMakesOneSubjectPerPartitionAndAWildcardOverThem() {
    assertEquals("plumb-abc-0.3", Subjects.partition("plumb-abc-0", 3));
    assertEquals("plumb-abc-0.*", Subjects.wildcard("plumb-abc-0"));
  }

  @Test
  void aTopicThatMakesNoValidSubjectIsRefusedWhereTheSubjectIsMade() {
    assertThrows(IllegalArgumentException.class, () -> Subjects.partition("two words", 0));
    assertThrows(IllegalArgumentException.class, () -> Subjects.wildcard("two words"));
  }
}
