package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.FinalReader;
import io.plumb.driver.MessageListener;
import io.plumb.message.MessageHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Messages of both shapes that a driver carrying Plumb's header in the broker's metadata must keep
 * apart: even sequence numbers go with the header in metadata and a 1-byte body (the sequence's low
 * byte), odd ones plain, the header in front of the same body. The arrays are overwritten as soon
 * as send() returns, as the framework reuses its buffers, so a driver that kept them past send() is
 * caught. A {@link Reading} is the listener for a final read or a consumer, and says what did not
 * come back as it was sent.
 */
public final class MixedHeaderMessages {

  /** The run id in every header, so that a message from anything else is told apart. */
  public static final int RUN_ID = 77;

  private final int messages;

  /** {@code messages} messages, half of each shape. */
  public MixedHeaderMessages(int messages) {
    this.messages = messages;
  }

  /**
   * The header of a sequence, the same bytes every time. Its send time is negative, so that every
   * byte of it is above 127 and a signed-byte slip shows.
   */
  public static byte[] header(long sequence) {
    byte[] header = new byte[MessageHeader.SIZE];
    MessageHeader.write(header, MessageHeader.KIND_LOAD, RUN_ID, 0, sequence, ~sequence);
    return header;
  }

  /** Whether a sequence travels with its header in metadata (else plain). */
  public static boolean inMetadata(long sequence) {
    return sequence % 2 == 0;
  }

  /**
   * Sends every message, keyed {@code "k" + sequence} so that keyed drivers spread them over the
   * partitions, and waits up to {@code timeout} for each acknowledgement.
   *
   * @return what failed: each send the broker refused, and the acknowledgements still missing
   */
  public List<String> sendAll(BenchmarkProducer producer, Duration timeout)
      throws InterruptedException {
    Acknowledgements done = new Acknowledgements(messages);
    byte[] header = new byte[MessageHeader.SIZE];
    byte[] body = new byte[1];
    byte[] payload = new byte[MessageHeader.SIZE + 1];
    for (long seq = 0; seq < messages; seq++) {
      if (inMetadata(seq)) {
        System.arraycopy(header(seq), 0, header, 0, header.length);
        body[0] = (byte) seq;
        producer.send("k" + seq, header, body, seq, done);
        Arrays.fill(header, (byte) 0);
        body[0] = (byte) ~seq;
      } else {
        System.arraycopy(header(seq), 0, payload, 0, MessageHeader.SIZE);
        payload[MessageHeader.SIZE] = (byte) seq;
        producer.send("k" + seq, payload, seq, done);
        Arrays.fill(payload, (byte) 0);
      }
    }
    return done.await(timeout);
  }

  /**
   * Sends every message to {@code topic} (which exists) through a producer of {@code driver}'s,
   * reads the topic to its end as {@code subscription} ({@link FinalReader}), then deletes it.
   *
   * @return what went wrong: failed sends, then what the read did not hand back as it was sent
   */
  public <D extends BenchmarkDriver & FinalReader> List<String> sendThenReadToEnd(
      D driver, String topic, String subscription, Duration timeout) throws Exception {
    List<String> problems;
    try (BenchmarkProducer producer =
        driver.createProducer(topic).get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      problems = sendAll(producer, timeout);
    }
    Reading read = reading();
    driver.readToEnd(topic, subscription, read, timeout);
    problems.addAll(read.problems());
    driver.deleteTopics(List.of(topic)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    return problems;
  }

  /** A listener that checks each message handed to it against what {@link #sendAll} sent. */
  public Reading reading() {
    return new Reading();
  }

  /**
   * What a final read or a consumer handed over. Called on the driver's threads, so what is wrong
   * is noted for the test's thread to check rather than thrown there.
   */
  public final class Reading implements MessageListener {
    private final Map<Long, String> how = new ConcurrentHashMap<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final CountDownLatch all = new CountDownLatch(messages);

    private Reading() {}

    @Override
    public void received(byte[] payload, int partition) {
      Byte body = payload.length == MessageHeader.SIZE + 1 ? payload[MessageHeader.SIZE] : null;
      check(Arrays.copyOf(payload, Math.min(payload.length, MessageHeader.SIZE)), "plain", body);
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      check(header, "metadata", payload.length == 1 ? payload[0] : null);
    }

    @Override
    public void failed(Throwable error) {
      problems.add("failed: " + error);
    }

    private void check(byte[] header, String path, Byte body) {
      if (header.length != MessageHeader.SIZE || !MessageHeader.isFromRun(header, RUN_ID)) {
        problems.add(path + ": not a header of this test, " + header.length + " bytes");
        return;
      }
      long seq = MessageHeader.sequence(header);
      String expected = inMetadata(seq) ? "metadata" : "plain";
      if (!path.equals(expected)) {
        problems.add("sequence " + seq + " handed over " + path + ", sent " + expected);
      }
      if (!Arrays.equals(header(seq), header)) {
        problems.add(path + ": sequence " + seq + " has another header than was sent");
      }
      if (body == null || body != (byte) seq) {
        problems.add(path + ": sequence " + seq + " has another body than was sent");
      }
      if (how.put(seq, path) != null) {
        problems.add(path + ": sequence " + seq + " handed over twice");
      }
      all.countDown();
    }

    /** Waits up to {@code timeout} until every message was handed over (for a consumer). */
    public boolean awaitAll(Duration timeout) throws InterruptedException {
      return all.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * What did not come back as sent: empty when each message was handed over once, through the
     * listener call for its shape, with the header and body it was sent with.
     */
    public List<String> problems() {
      List<String> found = new ArrayList<>(problems);
      List<Long> missing = new ArrayList<>();
      for (long seq = 0; seq < messages; seq++) {
        if (!how.containsKey(seq)) {
          missing.add(seq);
        }
      }
      if (!missing.isEmpty()) {
        found.add(
            missing.size()
                + " of "
                + messages
                + " never handed over, first "
                + missing.subList(0, Math.min(10, missing.size())));
      }
      return found;
    }
  }
}
