package io.plumb.fault;

import java.nio.file.Path;

/**
 * A node's power-loss layer as its deploy script recorded it: the layer's program ({@code
 * deploy/power-loss}, built to {@code .plumb/bin/plumb-power-loss}) and the control socket of the
 * layer mounted under the node's data directory.
 */
public record PowerLossLayer(Path tool, Path control) {}
