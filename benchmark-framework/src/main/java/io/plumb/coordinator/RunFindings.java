package io.plumb.coordinator;

import io.plumb.message.HeaderPlacement;
import io.plumb.workload.Workload;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run has learnt so far: the driver's name and class, the broker's facts, where the header
 * travels, the plan. A step that fails part-way leaves here whatever it learnt, so teardown and the
 * report still see it.
 */
final class RunFindings {
  private final Workload workload;
  private String driverName;
  private String driverClass = "";
  private Map<String, String> brokerFacts = Map.of();
  private HeaderPlacement headerPlacement;
  private RunPlan plan;

  /** Until the driver names itself, the run goes by its driver file's name. */
  RunFindings(Workload workload, String driverFileName) {
    this.workload = workload;
    this.driverName = driverFileName;
  }

  /** What the initialised driver said of itself. */
  void driverInitialized(String name, String className, Map<String, String> facts) {
    driverName = name;
    driverClass = className;
    brokerFacts = facts;
  }

  String driverName() {
    return driverName;
  }

  /** The driver's class, once the worker has loaded it. */
  String driverClass() {
    return driverClass;
  }

  /** The driver's facts, with where the header travels once that is decided. */
  Map<String, String> brokerFacts() {
    if (headerPlacement == null) {
      return brokerFacts;
    }
    Map<String, String> all = new LinkedHashMap<>(brokerFacts);
    all.putAll(HeaderChoice.facts(headerPlacement, workload.messageSize(), brokerFacts));
    return all;
  }

  /** The facts as the driver reports them again once topics or clients exist. */
  void brokerFacts(Map<String, String> facts) {
    brokerFacts = facts;
  }

  /** Where the run's header travels; null until the driver's facts are known. */
  HeaderPlacement headerPlacement() {
    return headerPlacement;
  }

  void headerPlacement(HeaderPlacement placement) {
    headerPlacement = placement;
  }

  /** The topics, producers and consumers of this run; null until the driver is initialised. */
  RunPlan plan() {
    return plan;
  }

  void plan(RunPlan value) {
    plan = value;
  }
}
