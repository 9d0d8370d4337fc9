package io.plumb.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a cluster test does to the local 3-node cluster around its tests, as a JUnit extension: a
 * check before the first test that the cluster is there (three nodes, the power-loss layer), and
 * the cluster made whole again after the last, so that the next class starts on every node. Tests
 * whose faults may leave a node down or fenced make it whole before each test as well. Register it
 * in a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final WholeCluster CLUSTER =
 *     WholeCluster.beforeEachTest(LocalKafkaCluster::requireThreeBrokers, LocalKafkaCluster::makeWhole);
 * }</pre>
 *
 * <p>Its check runs before the class's own {@code @BeforeAll} methods, its last making whole after
 * the class's own {@code @AfterAll} methods.
 */
public final class WholeCluster implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

  /** A step on the local cluster: its script, a client's question. */
  @FunctionalInterface
  public interface Step {
    void run() throws Exception;
  }

  private final Step check;
  private final Step makeWhole;
  private final boolean beforeEachTest;

  private WholeCluster(Step check, Step makeWhole, boolean beforeEachTest) {
    this.check = check;
    this.makeWhole = makeWhole;
    this.beforeEachTest = beforeEachTest;
  }

  /** {@code check} before the first test; {@code makeWhole} before each test and after the last. */
  public static WholeCluster beforeEachTest(Step check, Step makeWhole) {
    return new WholeCluster(check, makeWhole, true);
  }

  /** {@code makeWhole} before each test and after the last, with nothing to check first. */
  public static WholeCluster beforeEachTest(Step makeWhole) {
    return new WholeCluster(() -> {}, makeWhole, true);
  }

  /**
   * {@code check} before the first test; {@code makeWhole} after the last only, for tests that stop
   * and start nodes themselves.
   */
  public static WholeCluster afterAllTests(Step check, Step makeWhole) {
    return new WholeCluster(check, makeWhole, false);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    check.run();
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    if (beforeEachTest) {
      makeWhole.run();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    makeWhole.run();
  }
}
