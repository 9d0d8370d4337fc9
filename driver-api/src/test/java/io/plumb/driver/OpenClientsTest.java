package io.plumb.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenClientsTest {

  @Test
  void everyClientIsClosedOnceWhateverOthersThrowAndTheFirstFailureIsReturned() {
    List<String> closed = new ArrayList<>();
    IllegalStateException first = new IllegalStateException("first");
    IllegalStateException second = new IllegalStateException("second");
    OpenClients clients = new OpenClients();
    clients.add(() -> closed.add("a"));
    clients.add(
        () -> {
          closed.add("b");
          throw first;
        });
    clients.add(
        () -> {
          closed.add("c");
          throw second;
        });
    clients.add(() -> closed.add("d"));

    Exception failure = clients.closeAll();

    assertEquals(List.of("a", "b", "c", "d"), closed);
    assertSame(first, failure);
    assertSame(second, failure.getSuppressed()[0]);
    // Forgotten once closed: a second close of the driver closes nothing again.
    assertNull(clients.closeAll());
    assertEquals(4, closed.size());
  }
}
