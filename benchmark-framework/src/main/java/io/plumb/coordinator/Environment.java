package io.plumb.coordinator;

import io.plumb.load.Pacing;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Where a result was measured, recorded beside its figures. */
final class Environment {
  private Environment() {}

  static Map<String, Object> describe(Pacing pacing) {
    Map<String, Object> environment = new LinkedHashMap<>();
    Package pkg = Environment.class.getPackage();
    environment.put(
        "plumbVersion",
        pkg.getImplementationVersion() == null ? "development" : pkg.getImplementationVersion());
    environment.put("java", System.getProperty("java.version"));
    environment.put(
        "jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
    environment.put(
        "jvmArguments",
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .map(Environment::maskArgument)
            .toList());
    environment.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    environment.put("cores", Runtime.getRuntime().availableProcessors());
    environment.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
    environment.put("pacing", pacing.name().toLowerCase(Locale.ROOT));
    try {
      environment.put("host", InetAddress.getLocalHost().getHostName());
    } catch (UnknownHostException e) {
      environment.put("host", "unknown");
    }
    return environment;
  }

  private static String maskArgument(String argument) {
    int equals = argument.indexOf('=');
    return equals < 0
        ? argument
        : argument.substring(0, equals + 1)
            + Secrets.mask(argument.substring(0, equals), argument.substring(equals + 1));
  }
}
