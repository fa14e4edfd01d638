/**
 * The shipped deployment files checked with the tools their users run: the kustomize overlays of
 * {@code deploy/kubernetes/} rendered by {@code kubectl kustomize}, and the systemd unit of {@code
 * deploy/systemd/} verified by {@code systemd-analyze}.
 */
package io.sf2loki.daemon.deploy;
