package io.plumb.driver.rabbitmq;

import java.util.List;

/**
 * The copies of one queue or stream, as the management API reports them.
 *
 * @param queue the queue's name
 * @param type {@code classic}, {@code quorum} or {@code stream}
 * @param members the nodes holding a copy: Raft members, stream replicas, or a classic queue's node
 * @param leader the node that leads it (a classic queue's own node), or null if not reported
 */
record QueueCopies(String queue, String type, List<String> members, String leader) {}
