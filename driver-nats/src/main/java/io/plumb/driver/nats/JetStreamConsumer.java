package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.ConsumeOptions;
import io.nats.client.Dispatcher;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.MessageConsumer;
import io.nats.client.MessageHandler;
import io.nats.client.PushSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;

/**
 * A member of a durable JetStream consumer named after the benchmark subscription. All members of
 * one subscription bind to the same durable consumer, so they share its messages; each subscription
 * has its own durable, so each gets every message. Every message is acknowledged explicitly after
 * the listener has seen it, and the durable's {@code maxAckPending} bounds what is in flight.
 *
 * <p>Faults: the durable has as many replicas as its stream, so it survives the loss of a server
 * with its delivered and acknowledged state. A pull consumer's requests expire after {@link
 * #PULL_EXPIRES} with heartbeats at half that: when none arrive for three heartbeats (the server
 * holding the pull died, froze or was cut off, or the consumer's leader moved), jnats drops the
 * pull and asks again, on the connection it has reconnected meanwhile. A message delivered but
 * never acknowledged (lost on the way, or its ack lost) is delivered again after {@link #ACK_WAIT}.
 *
 * <p>Backlog workloads: {@link #pause} and {@link #resume} pause the durable on the server (see
 * {@link DurablePauses}), not the client, for pull and push alike.
 */
final class JetStreamConsumer implements BenchmarkConsumer {

  /**
   * How long one pull request lasts on the server; jnats asks for heartbeats every half of it and
   * pulls anew after three missed ones (here 3 s; its timer notices within 6 s), where its default
   * (30 s) would leave a consumer idle for 45 to 90 s after its server or its durable's leader went
   * away.
   */
  static final java.time.Duration PULL_EXPIRES = java.time.Duration.ofSeconds(2);

  /**
   * A delivered message not acknowledged within this is delivered again (the server's default is 30
   * s). Acknowledgements here follow the listener at once, so only a message or ack lost to a fault
   * waits this long; shorter than a fault run's drain, so such messages arrive again before the run
   * stops waiting for them.
   */
  static final java.time.Duration ACK_WAIT = java.time.Duration.ofSeconds(10);

  private final AutoCloseable stop;
  private final DurablePauses pauses;
  private final Durable durable;
  private final MessageListener listener;

  private JetStreamConsumer(
      AutoCloseable stop, DurablePauses pauses, Durable durable, MessageListener listener) {
    this.stop = stop;
    this.pauses = pauses;
    this.durable = durable;
    this.listener = listener;
  }

  static JetStreamConsumer start(
      Connection connection,
      JetStream jetStream,
      JetStreamManagement management,
      String topic,
      String subscription,
      NatsDriverConfig config,
      DurablePauses pauses,
      MessageListener listener)
      throws Exception {
    Durable durable = Durable.of(topic, subscription);
    String stream = durable.stream();
    MessageHandler handler = TopicDelivery.handler(topic, listener, Message::ack);
    ConsumerConfiguration.Builder durableConfig =
        ConsumerConfiguration.builder()
            .durable(durable.name())
            .ackPolicy(AckPolicy.Explicit)
            .ackWait(ACK_WAIT)
            .deliverPolicy(DeliverPolicy.All)
            .maxAckPending(config.maxAckPending());
    if (config.consumerType() == NatsDriverConfig.ConsumerType.PULL) {
      addOrUpdate(management, stream, durableConfig.build());
      MessageConsumer consumer =
          jetStream
              .getConsumerContext(stream, durable.name())
              .consume(
                  ConsumeOptions.builder()
                      .batchSize(config.pullBatchSize())
                      .expiresIn(PULL_EXPIRES.toMillis())
                      .build(),
                  handler);
      return new JetStreamConsumer(consumer, pauses, durable, listener);
    }
    // Push: the server delivers to a subject; the deliver group makes members share the messages.
    String group = durable.name();
    addOrUpdate(
        management,
        stream,
        durableConfig
            .deliverSubject("_plumb.deliver." + stream + "." + durable.name())
            .deliverGroup(group)
            .build());
    Dispatcher dispatcher = connection.createDispatcher();
    JetStreamSubscription sub =
        jetStream.subscribe(
            null,
            group,
            dispatcher,
            handler,
            false,
            PushSubscribeOptions.bind(stream, durable.name()));
    return new JetStreamConsumer(
        () -> {
          dispatcher.unsubscribe(sub);
          connection.closeDispatcher(dispatcher);
        },
        pauses,
        durable,
        listener);
  }

  /**
   * Creates the durable, or leaves it as it is when another member created it first: members of one
   * subscription may start concurrently, and an identical configuration is accepted by the server.
   */
  private static void addOrUpdate(
      JetStreamManagement management, String stream, ConsumerConfiguration durable)
      throws Exception {
    try {
      management.addOrUpdateConsumer(stream, durable);
    } catch (JetStreamApiException e) {
      // A racing member created it: binding below verifies it exists.
      if (management.getConsumerInfo(stream, durable.getDurable()) == null) {
        throw e;
      }
    }
  }

  /**
   * Pauses the durable on the server, which then delivers nothing to any of its members (the
   * subscription's consumers, in every worker) until a resume: the framework pauses and resumes
   * them all together. Why not stop pulling or unsubscribe here instead: jnats's {@code
   * MessageConsumer.stop()} unsubscribes as soon as its last pull's messages have arrived, and
   * drops those still queued for the handler, so they would come again only after {@link
   * #ACK_WAIT}, as redeliveries; a push member that unsubscribed would drop its queued messages the
   * same way. Paused on the server, every message the client already has goes to the listener and
   * is acknowledged as usual, and the subscription, the pull loop and its recovery stay as they are
   * (a pull request expires unanswered every {@link #PULL_EXPIRES} and is renewed). Returns at
   * once: the request is sent from {@link DurablePauses}' thread.
   *
   * @throws UnsupportedOperationException when the server is older than NATS 2.11
   */
  @Override
  public void pause() {
    pauses.pause(durable, listener);
  }

  /**
   * Resumes the durable on the server: it goes on with the message after the last it delivered.
   * Returns at once.
   */
  @Override
  public void resume() {
    pauses.resume(durable, listener);
  }

  @Override
  public void close() throws Exception {
    stop.close();
  }
}
