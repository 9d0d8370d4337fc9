package io.plumb.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.loopback.LoopbackDriver;
import io.plumb.worker.DriverSettingsReader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The kit's test messages: through the loopback driver, keeping what it acknowledges, everything
 * comes back as sent; handed over wrongly, each reading names what is wrong.
 */
class TestMessagesTest {
  private static final Path LOOPBACK = Path.of("../benchmark-framework/loopback.yaml");

  private static LoopbackDriver keeping(String topic, int partitions) throws Exception {
    LoopbackDriver driver = new LoopbackDriver();
    driver.initialize(DriverSettingsReader.config(LOOPBACK, Map.of("keepMessages", "true")));
    driver.createTopic(topic, partitions).get();
    return driver;
  }

  @Test
  void mixedMessagesComeBackAsTheyWereSent() throws Exception {
    try (LoopbackDriver driver = keeping("mixed", 3)) {
      assertEquals(
          List.of(),
          new MixedHeaderMessages(200)
              .sendThenReadToEnd(driver, "mixed", "sub", Duration.ofSeconds(10)));
    }
  }

  @Test
  void aMixedReadingNamesWhatDidNotComeBackAsSent() {
    MixedHeaderMessages.Reading read = new MixedHeaderMessages(4).reading();
    // 0 twice; 1 with its header apart, though it was sent plain; 2 and 3 never.
    read.received(MixedHeaderMessages.header(0), new byte[] {0}, 0);
    read.received(MixedHeaderMessages.header(0), new byte[] {0}, 0);
    read.received(MixedHeaderMessages.header(1), new byte[] {1}, 0);
    assertEquals(
        List.of(
            "metadata: sequence 0 handed over twice",
            "sequence 1 handed over metadata, sent plain",
            "2 of 4 never handed over, first [2, 3]"),
        read.problems());
  }

  @Test
  void keyedMessagesComeBackOnceEachOnTheirKeysPartition() throws Exception {
    try (LoopbackDriver driver = keeping("keyed", 4)) {
      KeyedMessages messages = new KeyedMessages(500, 20);
      try (BenchmarkProducer producer = driver.createProducer("keyed").get()) {
        assertEquals(List.of(), messages.sendAll(producer, Duration.ofSeconds(10)));
      }
      KeyedMessages.Reading read = messages.reading();
      driver.readToEnd("keyed", "sub", read, Duration.ofSeconds(10));
      assertEquals(List.of(), read.problems());
      assertEquals(500, read.total());
      long onPartitions = 0;
      for (int partition = 0; partition < 4; partition++) {
        onPartitions += read.onPartition(partition);
      }
      assertEquals(500, onPartitions);
    }
  }

  @Test
  void aKeyedReadingNamesMissingRepeatedAndSplitKeys() {
    KeyedMessages.Reading read = new KeyedMessages(3, 2).reading();
    read.received(numbered(0), 0);
    read.received(numbered(0), 0);
    read.received(numbered(2), 1); // key 0 again, on another partition
    assertEquals(
        List.of(
            "key 0 on partitions 0 and 1",
            "1 of 3 messages never handed over",
            "1 of 3 messages handed over more than once"),
        read.problems());
    assertEquals(3, read.total());
  }

  @Test
  void failedAndUncompletedSendsAreNamed() throws Exception {
    Acknowledgements acknowledgements = new Acknowledgements(3);
    acknowledgements.sendCompleted(0, null);
    acknowledgements.sendCompleted(1, new IllegalStateException("refused"));
    assertEquals(
        List.of(
            "1 of 3 sends not completed after 0 s",
            "send 1: java.lang.IllegalStateException: refused"),
        acknowledgements.await(Duration.ofMillis(10)));
  }

  @Test
  void aSendCompletedTwiceIsNamedAndEachCompletionsPartitionKept() throws Exception {
    Acknowledgements acknowledgements = new Acknowledgements(2);
    acknowledgements.sendCompleted(0, 3, null);
    acknowledgements.sendCompleted(1, null);
    acknowledgements.sendCompleted(1, null);
    assertEquals(
        List.of("3 completions for 2 sends"), acknowledgements.await(Duration.ofSeconds(1)));
    assertEquals(3, acknowledgements.partitionOf(0));
    assertEquals(Acknowledgements.UNKNOWN_PARTITION, acknowledgements.partitionOf(1));
  }

  private static byte[] numbered(int number) {
    return ByteBuffer.allocate(64).putInt(0, number).array();
  }
}
