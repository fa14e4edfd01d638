/**
 * {@code doctor}: one check per thing a deployment needs (config, Salesforce auth and permissions,
 * clock skew, Loki, the store, the lease, Kubernetes RBAC), each run under its own timeout and
 * reported as PASS, WARN, FAIL or SKIP with a one-line remedy.
 */
package io.sf2loki.cli.doctor;
