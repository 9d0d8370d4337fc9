package io.plumb.driver.pulsar;

import java.util.Set;
import java.util.UUID;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.admin.PulsarAdminException;
import org.apache.pulsar.common.policies.data.PersistencePolicies;
import org.apache.pulsar.common.policies.data.RetentionPolicies;
import org.apache.pulsar.common.policies.data.TenantInfo;

/**
 * The driver instance's own namespace, with the file's persistence (ensemble, write and ack
 * quorum), deduplication and retention: every topic created in it gets those policies.
 */
final class PulsarNamespace {
  private final PulsarAdmin admin;
  private final PulsarClientSettings settings;
  private final PulsarBrokerFacts facts;

  /**
   * Set just before the namespace is created, so that {@link #delete} tries it even when a later
   * step of {@link #create} failed; null until then.
   */
  private String name;

  PulsarNamespace(PulsarAdmin admin, PulsarClientSettings settings, PulsarBrokerFacts facts) {
    this.admin = admin;
    this.settings = settings;
    this.facts = facts;
  }

  /** {@code <tenant>/<prefix>-<random>}; null until {@link #create} got as far as naming it. */
  String name() {
    return name;
  }

  /**
   * Creates {@code <tenant>/<prefix>-<random>} with the YAML's policies, then reads them back: a
   * broker that refused or altered a policy fails the run here rather than measuring something
   * else.
   */
  void create() throws PulsarAdminException {
    String tenant = settings.namespacePrefix().split("/")[0];
    String cluster = PulsarCluster.name(admin, settings);
    if (!admin.tenants().getTenants().contains(tenant)) {
      try {
        admin
            .tenants()
            .createTenant(tenant, TenantInfo.builder().allowedClusters(Set.of(cluster)).build());
      } catch (PulsarAdminException raced) {
        // Another driver instance (another worker, or another test JVM) created it first: the
        // broker answers 409, or 500 with a metadata "BadVersionException" when both creations
        // reached its store at once. Either way the tenant is there, which is all this needs.
        if (!admin.tenants().getTenants().contains(tenant)) {
          throw raced;
        }
      }
    }
    name = settings.namespacePrefix() + "-" + UUID.randomUUID().toString().substring(0, 8);
    admin.namespaces().createNamespace(name, Set.of(cluster));
    PulsarClientSettings.Persistence p = settings.persistence();
    admin
        .namespaces()
        .setPersistence(
            name, new PersistencePolicies(p.ensembleSize(), p.writeQuorum(), p.ackQuorum(), 0));
    admin.namespaces().setDeduplicationStatus(name, p.deduplicationEnabled());
    admin
        .namespaces()
        .setRetention(
            name,
            new RetentionPolicies(
                settings.retention().timeInMinutes(), settings.retention().sizeInMB()));

    PersistencePolicies read = admin.namespaces().getPersistence(name);
    if (read == null
        || read.getBookkeeperEnsemble() != p.ensembleSize()
        || read.getBookkeeperWriteQuorum() != p.writeQuorum()
        || read.getBookkeeperAckQuorum() != p.ackQuorum()) {
      throw new IllegalStateException(
          "namespace " + name + " persistence reads back as " + read + ", not " + p);
    }
    facts.put("pulsar.namespace", name);
    facts.put("pulsar.cluster", cluster);
    facts.put(
        "pulsar.persistence",
        "ensembleSize="
            + read.getBookkeeperEnsemble()
            + " writeQuorum="
            + read.getBookkeeperWriteQuorum()
            + " ackQuorum="
            + read.getBookkeeperAckQuorum()
            + " (read back)");
    facts.put(
        "pulsar.deduplication", String.valueOf(admin.namespaces().getDeduplicationStatus(name)));
    RetentionPolicies retention = admin.namespaces().getRetention(name);
    facts.put(
        "pulsar.retention",
        retention == null
            ? "none"
            : retention.getRetentionTimeInMinutes()
                + " min, "
                + retention.getRetentionSizeInMB()
                + " MB");
    facts.put("pulsar.topicType", settings.topicType().toString());
  }

  /** Deletes the namespace once it was named, when it can be. */
  void delete() {
    if (name != null) {
      try {
        // Only succeeds once every topic is gone, so it never removes another run's data.
        admin.namespaces().deleteNamespace(name);
      } catch (PulsarAdminException e) {
        // topics kept (deleteTopics not called): leave the namespace too
      }
    }
  }
}
