package io.plumb.driver;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Other {@code driverClass} names this driver answers to, so driver files written for another
 * benchmark tool (for example OpenMessaging Benchmark's class names) run unchanged.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface DriverAliases {
  String[] value();
}
