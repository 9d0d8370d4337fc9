package io.plumb.cli;

import io.plumb.coordinator.RunOptions;
import io.plumb.worker.Worker;
import java.io.PrintStream;
import java.util.function.Supplier;

/**
 * What every run of a search or a sweep shares: the console, the run options, a fresh worker per
 * run, and the place an interrupt reaches the run under way.
 */
record RunSetup(
    PrintStream out, RunOptions options, CurrentRun current, Supplier<Worker> workers) {}
