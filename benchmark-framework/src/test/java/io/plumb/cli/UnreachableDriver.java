package io.plumb.cli;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import java.util.concurrent.CompletableFuture;

/** A driver whose broker never answers, as a real driver reports it. Test code only. */
public final class UnreachableDriver implements BenchmarkDriver {
  static final String ADDRESS = "127.0.0.1:1";

  @Override
  public void initialize(DriverConfig config) throws Exception {
    throw new BrokerUnreachableException(
        config.settings().file(),
        "Nothing",
        ADDRESS,
        "Connection refused",
        "deploy/local/nothing.sh start",
        "--driver-set address=HOST:PORT");
  }

  @Override
  public String topicNamePrefix() {
    return "unreachable";
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    throw new IllegalStateException("never initialised");
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    throw new IllegalStateException("never initialised");
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    throw new IllegalStateException("never initialised");
  }

  @Override
  public void close() {}
}
