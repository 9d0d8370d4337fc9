package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.ConsumerInfo;
import io.plumb.coordinator.PeriodProgress;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.RunReport;
import io.plumb.testkit.BacklogSmokeRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A backlog workload through the whole engine on the local server: with JetStream, the durable is
 * paused on the server while 5,120 messages of 1 KiB pile up, then resumed and drained, each
 * message received exactly once and none delivered twice by the server; with core NATS, the run is
 * refused in one line before any load.
 */
class NatsBacklogTest {
  private static final String URL = LocalNats.URL;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"pull", "push"})
  void jetStreamDurablesPauseWhileTheBacklogBuildsThenDrainIt(String consumerType)
      throws Exception {
    try (Connection admin = Nats.connect(Options.builder().server(URL).build())) {
      Durables durables = new Durables(admin.jetStreamManagement());
      BacklogSmokeRun run;
      try {
        run =
            BacklogSmokeRun.run(
                Path.of("nats-jetstream.yaml"),
                dir,
                RunOptions.defaults()
                    // Kept for the durable's last reading; deleted by the test.
                    .withKeepTopics(true)
                    .withDriverOverrides(Map.of("consumerType", consumerType)),
                durables);
        durables.readLast();
      } finally {
        durables.deleteStreams();
      }
      assertEquals(List.of(), run.problems());
      RunReport report = run.report();

      // The server paused the durable, and delivered each message once: none was left delivered
      // but unacknowledged by the pause, to come again after the ack wait.
      assertTrue(durables.sawPaused, "no period saw the durable paused on the server");
      ConsumerInfo last = durables.last();
      long stored = durables.lastStored;
      assertTrue(stored >= report.counters().sent(), stored + " stored");
      assertEquals(stored, last.getDelivered().getStreamSequence(), last.toString());
      assertEquals(stored, last.getDelivered().getConsumerSequence(), "deliveries: " + last);
      assertEquals(stored, last.getAckFloor().getStreamSequence(), last.toString());
      assertEquals(0, last.getRedelivered(), last.toString());
      assertEquals(0, last.getNumPending(), last.toString());
      assertEquals(0, last.getNumAckPending(), last.toString());
    }
  }

  /**
   * OMB's 10 GB backlog fills the shipped stream's {@code maxBytes} (10 GiB) with its bodies alone:
   * the stream would discard the oldest of it unread, and the run count them as lost.
   */
  @Test
  void aBacklogThatFillsMaxBytesIsRefusedBeforeAnyTopicExists() {
    String line = BacklogSmokeRun.refusalOfTheOmbBacklog(Path.of("nats-jetstream.yaml"), dir);
    assertTrue(
        line.contains(
            "field 'consumerBacklogSizeGB': a backlog of 10 GB keeps 10,737,418,240 bytes of bodies"
                + " in each topic, and NATS JetStream (file)"),
        line);
    assertTrue(
        line.endsWith(
            "keeps 10,737,418,240 before the broker discards the oldest, which would count as"
                + " lost: maxBytes 10737418240, maxMessages -1 per stream (a topic); raise them with"
                + " --driver-set maxBytes=N or maxMessages=N, -1 for none (a 1 KiB message takes"
                + " about 1,070 bytes in the file store)"),
        line);
  }

  @Test
  void coreNatsRefusesABacklogWorkloadInOneLine() {
    BacklogSmokeRun.assertRefused(
        Path.of("nats.yaml"), Map.of(), dir, "NATS core", CoreNatsConsumer.CANNOT_PAUSE);
  }

  /**
   * Reads the run's durable on the server: every period whether it is paused, and once the run is
   * over (its stream kept) what it delivered and what was acknowledged.
   */
  private static final class Durables implements RunListener {
    private final JetStreamManagement jsm;
    private final RunStreams streams;
    private final List<ConsumerInfo> last = new ArrayList<>();
    volatile boolean sawPaused;
    long lastStored;

    Durables(JetStreamManagement jsm) throws Exception {
      this.jsm = jsm;
      this.streams = new RunStreams(jsm);
    }

    @Override
    public void period(PeriodProgress progress) {
      try {
        for (RunStreams.Durable d : streams.durables()) {
          sawPaused |= jsm.getConsumerInfo(d.stream(), d.consumer()).getPaused();
        }
      } catch (Exception e) {
        // A reading missed: the others still count.
      }
    }

    void readLast() throws Exception {
      for (String stream : streams.names()) {
        lastStored = jsm.getStreamInfo(stream).getStreamState().getLastSequence();
        for (String consumer : jsm.getConsumerNames(stream)) {
          last.add(jsm.getConsumerInfo(stream, consumer));
        }
      }
    }

    /** The one durable of the run, as it was when the run was over. */
    ConsumerInfo last() {
      assertEquals(1, last.size(), last.toString());
      return last.get(0);
    }

    void deleteStreams() throws Exception {
      for (String stream : streams.names()) {
        jsm.deleteStream(stream);
      }
    }
  }
}
