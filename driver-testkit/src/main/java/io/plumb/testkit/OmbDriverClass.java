package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverAliases;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;

/**
 * How an OMB driver file's {@code driverClass} finds a Plumb driver: the driver's {@link
 * DriverAliases} name OMB's class, and the driver is listed in {@code META-INF/services}, where the
 * framework looks drivers up.
 */
public final class OmbDriverClass {

  private OmbDriverClass() {}

  /**
   * {@code type}'s one alias is {@code ombClassName}, and {@link ServiceLoader} lists {@code type}.
   *
   * @throws AssertionError otherwise
   */
  public static void assertAliasedAndListed(
      Class<? extends BenchmarkDriver> type, String ombClassName) {
    DriverAliases aliases = type.getAnnotation(DriverAliases.class);
    List<String> names = aliases == null ? List.of() : Arrays.asList(aliases.value());
    if (!names.equals(List.of(ombClassName))) {
      throw new AssertionError(
          type.getName() + "'s aliases are " + names + ", not [" + ombClassName + "]");
    }
    boolean listed =
        ServiceLoader.load(BenchmarkDriver.class).stream().anyMatch(p -> p.type() == type);
    if (!listed) {
      throw new AssertionError(type.getName() + " is not listed in META-INF/services");
    }
  }
}
