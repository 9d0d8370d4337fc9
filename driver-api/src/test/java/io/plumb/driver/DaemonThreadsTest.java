package io.plumb.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {

  @Test
  void aFactoryMakesUnstartedDaemonsOfTheNameEvenFromAThreadThatIsNone() throws Exception {
    AtomicReference<Thread[]> made = new AtomicReference<>();
    // Threads inherit their creator's daemon status: create them from a thread that is no daemon.
    Thread creator =
        new Thread(
            () -> {
              ThreadFactory factory = DaemonThreads.named("plumb-test-admin");
              made.set(new Thread[] {factory.newThread(() -> {}), factory.newThread(() -> {})});
            });
    creator.setDaemon(false);
    creator.start();
    creator.join();

    for (Thread thread : made.get()) {
      assertEquals("plumb-test-admin", thread.getName());
      assertTrue(thread.isDaemon());
      assertEquals(Thread.State.NEW, thread.getState());
    }
  }

  @Test
  void startRunsTheBodyOnTheDaemonItReturns() throws Exception {
    CompletableFuture<Thread> ranOn = new CompletableFuture<>();

    Thread thread =
        DaemonThreads.start("plumb-test-sender", () -> ranOn.complete(Thread.currentThread()));

    assertSame(thread, ranOn.get(10, TimeUnit.SECONDS));
    assertEquals("plumb-test-sender", thread.getName());
    assertTrue(thread.isDaemon());
    thread.join(10_000);
    assertFalse(thread.isAlive());
  }
}
