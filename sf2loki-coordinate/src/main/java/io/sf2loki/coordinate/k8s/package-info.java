/**
 * The {@code k8s_lease} coordinator: a {@code coordination.k8s.io/v1} Lease with resourceVersion as
 * the compare-and-swap, staleness judged on the observer's own monotonic clock, and {@code
 * leaseTransitions} as the fencing epoch.
 */
package io.sf2loki.coordinate.k8s;
