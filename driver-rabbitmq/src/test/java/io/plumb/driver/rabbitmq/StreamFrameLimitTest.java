package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.rabbitmq.stream.Codec;
import com.rabbitmq.stream.codec.QpidProtonCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The data section's bytes, as the client's codec encodes a message as the driver builds it. */
class StreamFrameLimitTest {

  @ParameterizedTest
  @ValueSource(ints = {256, 65_536, 1_048_544})
  void aBodyOf256BytesOrMoreTakesEightBytesMore(int bodyBytes) {
    assertEquals(bodyBytes + StreamFrameLimit.DATA_SECTION_BYTES, encodedSize(bodyBytes));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 26, 255})
  void aSmallerBodyTakesNoMore(int bodyBytes) {
    assertEquals(true, encodedSize(bodyBytes) <= bodyBytes + StreamFrameLimit.DATA_SECTION_BYTES);
  }

  /** The bytes the client's codec encodes a message of {@code bodyBytes} zero bytes to. */
  private static int encodedSize(int bodyBytes) {
    Codec codec = new QpidProtonCodec();
    return codec.encode(codec.messageBuilder().addData(new byte[bodyBytes]).build()).getSize();
  }
}
