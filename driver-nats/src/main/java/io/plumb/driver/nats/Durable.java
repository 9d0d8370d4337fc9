package io.plumb.driver.nats;

/**
 * A JetStream durable consumer by the names the server knows it by: the stream of a topic and the
 * durable of a subscription, each made a valid name by {@link Subjects#name}. Every member of the
 * subscription, in every worker, names the same durable.
 */
record Durable(String stream, String name) {

  static Durable of(String topic, String subscription) {
    return new Durable(Subjects.name(topic), Subjects.name(subscription));
  }

  /** How failures name it. */
  @Override
  public String toString() {
    return "JetStream consumer " + name + " of stream " + stream;
  }
}
