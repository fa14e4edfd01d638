/**
 * Salesforce OAuth: the JWT bearer and client credentials token flows behind one {@link
 * io.sf2loki.salesforce.auth.TokenProvider} that caches the token, refreshes it before its assumed
 * expiry, mints single-flight and invalidates compare-and-clear (invariant 8: no secret ever
 * reaches a message).
 */
package io.sf2loki.salesforce.auth;
