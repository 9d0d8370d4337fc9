package io.plumb.driver.redis;

import io.plumb.driver.DaemonThreads;
import io.plumb.driver.MessageListener;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.Jedis;

/**
 * One benchmark subscription in Pub/Sub mode, within this driver: a single subscriber connection
 * SUBSCRIBEd to all of the topic's channels, whose messages are split among the subscription's
 * consumers by partition (partition {@code p} goes to member {@code p mod members}). Redis Pub/Sub
 * has no consumer groups, so sharing is done here; it cannot span several driver processes.
 * Delivery is at most once: Redis disconnects a subscriber whose output buffer overflows ({@code
 * client-output-buffer-limit pubsub}), which the members' listeners are told about.
 *
 * <p>Its members cannot pause ({@link #CANNOT_PAUSE}): Redis delivers a PUBLISH to the subscribers
 * connected at that moment and keeps nothing, so a member that stopped reading would not find the
 * messages published meanwhile when it reads again, and one that stopped reading its socket would
 * be disconnected at the output buffer limit.
 */
final class PubSubSubscription implements SharedSubscription {

  /** Why a Pub/Sub consumer cannot pause, in the one-line refusal of a backlog workload. */
  static final String CANNOT_PAUSE =
      "Redis pub/sub keeps no messages for a subscriber that is not reading, so no backlog can"
          + " build; use a Redis Streams file such as driver-redis/redis.yaml";

  private final Jedis jedis;
  private final byte[][] channels;
  private final int prefixLength;
  private final Thread thread;
  private final CountDownLatch subscribed;
  private volatile MessageListener[] members = new MessageListener[0];
  private volatile Throwable subscribeFailure;
  private volatile boolean closing;

  private final BinaryJedisPubSub pubSub =
      new BinaryJedisPubSub() {
        @Override
        public void onMessage(byte[] channel, byte[] message) {
          int partition = RedisKeys.partitionOf(channel, prefixLength);
          MessageListener[] m = members;
          if (m.length > 0) {
            MessageListener member = m[Math.floorMod(partition, m.length)];
            try {
              member.received(message, partition);
            } catch (RuntimeException e) {
              // Thrown out of here it would end Jedis's subscribe loop for every member.
              member.failed(e);
            }
          }
        }

        @Override
        public void onSubscribe(byte[] channel, int subscribedChannels) {
          subscribed.countDown();
        }
      };

  /** Subscribes and returns once Redis has confirmed every channel. */
  PubSubSubscription(Jedis jedis, String topic, int partitions) throws Exception {
    this.jedis = jedis;
    this.channels = RedisKeys.partitions(topic, partitions);
    this.prefixLength = RedisKeys.prefixLength(topic);
    this.subscribed = new CountDownLatch(partitions);
    this.thread =
        DaemonThreads.start(
            "plumb-redis-subscriber-" + topic,
            () -> {
              try {
                jedis.subscribe(pubSub, channels);
              } catch (RuntimeException e) {
                subscribeFailure = e;
                if (!closing) {
                  for (MessageListener l : members) {
                    l.failed(e);
                  }
                }
                // Release a waiting constructor at once.
                while (subscribed.getCount() > 0) {
                  subscribed.countDown();
                }
              }
            });
    if (!subscribed.await(30, TimeUnit.SECONDS)) {
      close();
      throw new IllegalStateException("Redis did not confirm SUBSCRIBE to " + topic + " in 30 s");
    }
    if (subscribeFailure != null) {
      close();
      throw new IllegalStateException("SUBSCRIBE to " + topic + " failed", subscribeFailure);
    }
  }

  @Override
  public synchronized void join(MessageListener member) {
    MessageListener[] m = Arrays.copyOf(members, members.length + 1);
    m[m.length - 1] = member;
    members = m;
  }

  /** Removes a member; returns true when none is left (the caller then closes this). */
  @Override
  public synchronized boolean leave(MessageListener member) {
    MessageListener[] m = members;
    for (int i = 0; i < m.length; i++) {
      if (m[i] == member) {
        MessageListener[] rest = new MessageListener[m.length - 1];
        System.arraycopy(m, 0, rest, 0, i);
        System.arraycopy(m, i + 1, rest, i, m.length - i - 1);
        members = rest;
        break;
      }
    }
    return members.length == 0;
  }

  @Override
  public void close() throws InterruptedException {
    closing = true;
    if (pubSub.isSubscribed()) {
      pubSub.unsubscribe();
    }
    thread.join(TimeUnit.SECONDS.toMillis(10));
    jedis.close();
  }
}
