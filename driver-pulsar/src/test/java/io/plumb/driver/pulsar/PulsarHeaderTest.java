package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.MessageListener;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.common.api.proto.MessageMetadata;
import org.apache.pulsar.common.api.proto.SingleMessageMetadata;
import org.junit.jupiter.api.Test;

/**
 * The header as a message property, without a broker: the bytes it adds as the client's own
 * protobuf encoder writes them, and how a received message is handed on.
 */
class PulsarHeaderTest {

  /** 26 bytes, many above 127, as a real header's send time has. */
  private static byte[] header() {
    byte[] header = new byte[26];
    for (int i = 0; i < header.length; i++) {
      header[i] = (byte) (0xF7 - 13 * i);
    }
    return header;
  }

  /** A message that answers only what {@link PulsarHeader#deliver} asks. */
  @SuppressWarnings("unchecked")
  private static Message<byte[]> message(Map<String, String> properties, byte[] data) {
    return (Message<byte[]>)
        Proxy.newProxyInstance(
            Message.class.getClassLoader(),
            new Class<?>[] {Message.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getProperty" -> properties.get((String) args[0]);
                  case "getData" -> data;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  /** What {@link PulsarHeader#deliver} called, as "metadata"/"plain" with the arrays. */
  private static final class Calls implements MessageListener {
    final List<Object[]> calls = new ArrayList<>();

    @Override
    public void received(byte[] payload, int partition) {
      calls.add(new Object[] {"plain", payload, partition});
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      calls.add(new Object[] {"metadata", header, payload, partition});
    }

    @Override
    public void failed(Throwable error) {
      calls.add(new Object[] {"failed", error});
    }
  }

  @Test
  void thePropertyAddsTheBytesTheFactSaysInBothMetadataForms() {
    String value = PulsarHeader.encode(header());
    assertEquals(35, value.length(), value);
    assertEquals(46, PulsarHeader.WIRE_BYTES);

    // A message of a batch: its properties go in its SingleMessageMetadata.
    SingleMessageMetadata inBatch = new SingleMessageMetadata().setPayloadSize(1);
    int without = inBatch.getSerializedSize();
    SingleMessageMetadata inBatchWithHeader = new SingleMessageMetadata().setPayloadSize(1);
    inBatchWithHeader.addProperty().setKey(PulsarHeader.NAME).setValue(value);
    assertEquals(PulsarHeader.WIRE_BYTES, inBatchWithHeader.getSerializedSize() - without);

    // A message sent alone: its properties go in the MessageMetadata.
    MessageMetadata alone =
        new MessageMetadata().setProducerName("p").setSequenceId(1).setPublishTime(1);
    without = alone.getSerializedSize();
    MessageMetadata aloneWithHeader =
        new MessageMetadata().setProducerName("p").setSequenceId(1).setPublishTime(1);
    aloneWithHeader.addProperty().setKey(PulsarHeader.NAME).setValue(value);
    assertEquals(PulsarHeader.WIRE_BYTES, aloneWithHeader.getSerializedSize() - without);
  }

  @Test
  void aMessageWithThePropertyIsHandedOnWithItsHeaderApart() {
    byte[] body = {42};
    Calls listener = new Calls();
    PulsarHeader.deliver(
        message(Map.of(PulsarHeader.NAME, PulsarHeader.encode(header())), body), 2, listener);
    assertEquals(1, listener.calls.size());
    Object[] call = listener.calls.get(0);
    assertEquals("metadata", call[0]);
    assertArrayEquals(header(), (byte[]) call[1]);
    assertArrayEquals(body, (byte[]) call[2]);
    assertEquals(2, call[3]);
  }

  @Test
  void aMessageWithoutItIsHandedOnWhole() {
    byte[] payload = new byte[30];
    Calls listener = new Calls();
    PulsarHeader.deliver(message(Map.of("other", "x"), payload), 1, listener);
    assertEquals(1, listener.calls.size());
    assertEquals("plain", listener.calls.get(0)[0]);
    assertArrayEquals(payload, (byte[]) listener.calls.get(0)[1]);
  }

  /** Another writer's property of that name: not Plumb's header, so the payload goes on whole. */
  @Test
  void aPropertyThatIsNotBase64IsNotTakenForAHeader() {
    byte[] payload = {1, 2, 3};
    Calls listener = new Calls();
    PulsarHeader.deliver(message(Map.of(PulsarHeader.NAME, "not base64!"), payload), 0, listener);
    assertEquals(1, listener.calls.size());
    assertEquals("plain", listener.calls.get(0)[0]);
    assertArrayEquals(payload, (byte[]) listener.calls.get(0)[1]);
  }
}
