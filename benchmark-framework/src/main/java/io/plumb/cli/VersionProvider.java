package io.plumb.cli;

import picocli.CommandLine.IVersionProvider;

/** Prints the version the build stamped into the jar. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = VersionProvider.class.getPackage().getImplementationVersion();
    return new String[] {"Plumb " + (version == null ? "development build" : version)};
  }
}
