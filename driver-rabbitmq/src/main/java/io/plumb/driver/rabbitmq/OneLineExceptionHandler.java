package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.impl.ForgivingExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's handler for what goes wrong on a connection (a node gone, a write on a broken
 * socket, a recovery attempt that failed), logging one line each instead of a stack trace: during a
 * fault there are many, and the driver already accounts for every send and delivery they affect.
 */
final class OneLineExceptionHandler extends ForgivingExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(OneLineExceptionHandler.class);

  @Override
  protected void log(String message, Throwable e) {
    LOG.warn("{}: {}", message, e.toString());
  }
}
