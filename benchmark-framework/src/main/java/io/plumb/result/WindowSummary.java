package io.plumb.result;

import io.plumb.driver.ClientWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The client windows a run used, in one phrase for people: "send 8000 per producer
 * (maxUnconfirmed), receive 4000 per consumer (prefetchCount)". A peak that sits at what a window
 * allows measures the setting, not the broker, so the summary and the search's verdict say both.
 */
public final class WindowSummary {

  private WindowSummary() {}

  /** The phrase, from the run's broker facts; empty when the driver reported no window. */
  public static Optional<String> describe(Map<String, String> facts) {
    List<String> parts = new ArrayList<>();
    ClientWindow.send(facts).ifPresent(w -> parts.add(side("send", w, "producer")));
    ClientWindow.receive(facts).ifPresent(w -> parts.add(side("receive", w, "consumer")));
    return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", parts));
  }

  private static String side(String name, ClientWindow window, String per) {
    return name + " " + window.value() + " per " + per + " (" + window.setting() + ")";
  }
}
