/**
 * The interfaces a broker driver implements, and nothing else.
 *
 * <p>A driver moves opaque byte arrays: the framework writes everything measurement needs (intended
 * send time, producer id, sequence number) into the payload it hands to {@link
 * io.plumb.driver.BenchmarkProducer#send}, and reads it back from the payload the driver hands to
 * {@link io.plumb.driver.MessageListener#received}. A driver therefore never reads a clock, and
 * every broker is measured the same way.
 *
 * <p>To add a driver: implement {@link io.plumb.driver.BenchmarkDriver}, list the class in {@code
 * META-INF/services/io.plumb.driver.BenchmarkDriver}, and ship a YAML whose {@code driverClass}
 * names it; read its fields through {@link io.plumb.driver.DriverSettings}, and make the threads it
 * starts for itself with {@link io.plumb.driver.DaemonThreads}. The README's "Write a driver" walks
 * through {@code driver-nats}, the smallest real driver, from these interfaces to a test against a
 * real broker.
 */
package io.plumb.driver;
