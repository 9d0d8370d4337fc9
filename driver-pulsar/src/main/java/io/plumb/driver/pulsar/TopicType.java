package io.plumb.driver.pulsar;

/** Pulsar's topic domains, spelled as in topic names and OMB's {@code topicType}. */
public enum TopicType {
  PERSISTENT("persistent"),
  NON_PERSISTENT("non-persistent");

  private final String domain;

  TopicType(String domain) {
    this.domain = domain;
  }

  @Override
  public String toString() {
    return domain;
  }
}
