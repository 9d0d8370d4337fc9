package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nats.client.Connection;
import io.nats.client.api.StreamState;
import io.plumb.coordinator.FinalReadProbe;
import io.plumb.testkit.NoFinalRead;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The final read against the real local NATS server (deploy/local/nats.sh start). */
class NatsFinalReadTest {

  private static final int PRODUCERS = 2;
  private static final int PER_PRODUCER = 300;

  @Test
  void readsEveryMessageOfTheStreamUpToItsLastSequence() throws Exception {
    try (NatsBenchmarkDriver driver = LocalNats.open("nats-jetstream.yaml");
        Connection admin = LocalNats.admin()) {
      String topic = newTopicWithMessages(driver, 4, PRODUCERS, PER_PRODUCER);
      StreamState before =
          admin.jetStreamManagement().getStreamInfo(Subjects.name(topic)).getStreamState();

      FinalReadProbe.Collected read = new FinalReadProbe.Collected();
      String end = driver.readToEnd(topic, "sub-a", read, Duration.ofSeconds(60));

      read.assertExactly(PRODUCERS, PER_PRODUCER);
      assertEquals(Set.of(0, 1, 2, 3), read.partitions, "partitions as consumers number them");
      assertEquals(
          PRODUCERS * PER_PRODUCER, before.getLastSequence(), "the server's last sequence");
      assertEquals(
          "stream "
              + Subjects.name(topic)
              + " sequences 1.."
              + before.getLastSequence()
              + " ("
              + before.getMsgCount()
              + " messages)",
          end);
      driver.deleteTopics(java.util.List.of(topic)).get();
    }
  }

  /**
   * A stream the server no longer has, as after a power loss of every server that had not fsynced
   * its creation, is the end of the topic: the read finds nothing and says why, rather than fail
   * and leave loss to the drain.
   */
  @Test
  void aStreamTheServerNoLongerHasReadsAsEmpty() throws Exception {
    try (NatsBenchmarkDriver driver = LocalNats.open("nats-jetstream.yaml");
        Connection admin = LocalNats.admin()) {
      String topic = newTopicWithMessages(driver, 2, 1, 50);
      admin.jetStreamManagement().deleteStream(Subjects.name(topic));

      FinalReadProbe.Collected read = new FinalReadProbe.Collected();
      String end = driver.readToEnd(topic, "sub-a", read, Duration.ofSeconds(10));

      assertEquals(0, read.count.get(), "messages read from a stream that is gone");
      assertEquals(
          "stream " + Subjects.name(topic) + " no longer exists on the server (0 messages)", end);
    }
  }

  /** A new topic of {@code partitions}, to which each of {@code producers} sent {@code each}. */
  private static String newTopicWithMessages(
      NatsBenchmarkDriver driver, int partitions, int producers, int each) throws Exception {
    String topic = "plumb-final-" + UUID.randomUUID().toString().substring(0, 8);
    driver.createTopic(topic, partitions).get();
    FinalReadProbe.produce(driver, topic, producers, each);
    return topic;
  }

  @Test
  void coreNatsSaysItKeepsNothingAndRefusesTheRead() throws Exception {
    try (NatsBenchmarkDriver driver = LocalNats.open("nats.yaml")) {
      NoFinalRead.assertRefused(driver, "core NATS keeps no messages");
    }
    try (NatsBenchmarkDriver driver = LocalNats.open("nats-jetstream-memory.yaml")) {
      assertEquals(Optional.empty(), driver.whyNoFinalRead());
    }
  }
}
