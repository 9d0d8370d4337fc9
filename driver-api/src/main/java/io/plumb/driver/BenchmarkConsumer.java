package io.plumb.driver;

/** Receives the messages of one subscription; closing it stops delivery. */
public interface BenchmarkConsumer extends AutoCloseable {}
