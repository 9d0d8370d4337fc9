package io.plumb.fault;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Optional;

/**
 * Proves, before any load, that a network cut of a node really drops its traffic: connects from
 * this process (outside the node's cgroup) to a port the node listens on, cuts the node off for a
 * moment, checks that a connection then fails, heals, and checks that one works again. Loopback
 * only. A cut that matches nothing would otherwise pass for a fault that worked.
 */
final class CutProbe {
  private static final int CONNECT_MILLIS = 700;

  private CutProbe() {}

  /** Why a cut of {@code node} cannot be shown to drop traffic; empty when it can. */
  static Optional<String> problem(ClusterNode node) {
    Optional<Integer> port = node.ports().stream().filter(CutProbe::connects).findFirst();
    if (port.isEmpty()) {
      return Optional.of(
          node
              + " accepts no connection on 127.0.0.1 at its PORTS "
              + node.ports()
              + ", so a cut cannot be probed");
    }
    NetworkCut cut = NetworkCut.isolate("plumb_probe_" + node.name().replaceAll("\\W", "_"), node);
    boolean droppedWhileCut;
    try {
      droppedWhileCut = !connects(port.get());
    } finally {
      cut.heal();
    }
    if (droppedWhileCut && connects(port.get())) {
      return Optional.empty();
    }
    return Optional.of(
        droppedWhileCut
            ? node
                + " still refuses connections on port "
                + port.get()
                + " after the probe cut was healed"
            : "a probe cut of "
                + node
                + " did not drop a connection to its port "
                + port.get()
                + ": the cut matches none of its sockets");
  }

  private static boolean connects(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_MILLIS);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
