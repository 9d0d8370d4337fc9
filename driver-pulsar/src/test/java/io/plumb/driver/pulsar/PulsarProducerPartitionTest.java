package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.SendListener;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.impl.MessageIdImpl;
import org.apache.pulsar.client.impl.TopicMessageIdImpl;
import org.junit.jupiter.api.Test;

/** The partition a completion names comes from the message ID the broker acknowledged with. */
class PulsarProducerPartitionTest {

  @Test
  void aPartitionedTopicsMessageIdNamesItsPartition() {
    assertEquals(3, PulsarProducer.partitionOf(new MessageIdImpl(7, 9, 3)));
    MessageId wrapped =
        new TopicMessageIdImpl(
            "persistent://public/default/t-partition-2", new MessageIdImpl(7, 9, 2));
    assertEquals(2, PulsarProducer.partitionOf(wrapped));
  }

  @Test
  void aTopicWithoutPartitionsNamesNone() {
    assertEquals(
        SendListener.UNKNOWN_PARTITION, PulsarProducer.partitionOf(new MessageIdImpl(7, 9, -1)));
    assertEquals(SendListener.UNKNOWN_PARTITION, PulsarProducer.partitionOf(null));
  }
}
