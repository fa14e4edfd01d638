package io.sf2loki.connect;

import java.util.ArrayList;
import java.util.List;

/**
 * Spreads orgs over tasks: each org whole in one task, so that its Salesforce API budget and token
 * stay one, and a rebalance moves whole orgs. Round robin in the configuration's order, never an
 * empty task.
 */
final class OrgAssignment {

  private OrgAssignment() {}

  /**
   * @return at most {@code maxTasks} groups, each non-empty, together every org once
   */
  static List<List<String>> spread(List<String> orgs, int maxTasks) {
    if (maxTasks < 1) {
      throw new IllegalArgumentException("tasks.max must be at least 1: " + maxTasks);
    }
    int tasks = Math.min(maxTasks, orgs.size());
    List<List<String>> groups = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      groups.add(new ArrayList<>());
    }
    for (int i = 0; i < orgs.size(); i++) {
      groups.get(i % tasks).add(orgs.get(i));
    }
    return groups.stream().map(List::copyOf).toList();
  }
}
