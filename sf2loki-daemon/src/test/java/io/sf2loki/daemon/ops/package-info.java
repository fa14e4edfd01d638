/**
 * The operator's pack under {@code deploy/} checked with the tools its users run (issue 21): the
 * Prometheus rules with {@code promtool}, the Grafana dashboards' PromQL with {@code promtool} and
 * their LogQL, like the Loki ruler rules', with Grafana's own LogQL grammar; every metric, label
 * and field they name against what sf2loki really exposes and ships.
 */
package io.sf2loki.daemon.ops;
