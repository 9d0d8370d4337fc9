package io.plumb.driver.nats;

import io.nats.client.JetStreamManagement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The JetStream streams a run through the engine creates, told apart from the streams the server
 * held before it, and their durables: what a test's listener reads or pauses on the server while
 * the run goes on.
 */
final class RunStreams {

  /** A durable consumer {@code consumer} of the stream {@code stream}. */
  record Durable(String stream, String consumer) {}

  private final JetStreamManagement jsm;
  private final Set<String> before;

  /** Notes the streams on the server now, before the run. */
  RunStreams(JetStreamManagement jsm) throws Exception {
    this.jsm = jsm;
    this.before = new HashSet<>(jsm.getStreamNames());
  }

  /** The streams this run created: those that did not exist before it. */
  List<String> names() throws Exception {
    return jsm.getStreamNames().stream().filter(s -> !before.contains(s)).toList();
  }

  /** The durables of the streams this run created. */
  List<Durable> durables() throws Exception {
    List<Durable> durables = new ArrayList<>();
    for (String stream : names()) {
      for (String consumer : jsm.getConsumerNames(stream)) {
        durables.add(new Durable(stream, consumer));
      }
    }
    return durables;
  }
}
