/**
 * Machinery the lease coordinators share: the election lifecycle ({@link
 * io.sf2loki.coordinate.internal.AbstractLeaseCoordinator}), terms, the epoch rule, holder ids and
 * the sleeper abstraction. Not an API: library users configure coordinators through their
 * providers.
 */
package io.sf2loki.coordinate.internal;
