package io.plumb.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MetadataHeaderTest {

  @Test
  void everyHeaderIsThirtyFiveAsciiCharactersAndComesBackWhole() {
    byte[] header = new byte[MetadataHeader.SIZE];
    for (int i = 0; i < header.length; i++) {
      header[i] = (byte) (i * 37 + 128); // bytes above 127 among them
    }
    header[3] = '\r';
    header[4] = '\n';
    String text = MetadataHeader.toText(header);
    assertEquals(35, MetadataHeader.TEXT_CHARS);
    assertEquals(MetadataHeader.TEXT_CHARS, text.length());
    assertTrue(text.chars().allMatch(c -> c > ' ' && c < 127), text);
    assertArrayEquals(header, MetadataHeader.fromText(text));
  }

  @Test
  void textThatIsNotBase64IsRefused() {
    assertThrows(IllegalArgumentException.class, () -> MetadataHeader.fromText("not base64!"));
  }
}
