/**
 * The Salesforce REST and Tooling client on Apache HttpClient 5 and Jackson: SOQL queries with
 * {@code nextRecordsUrl} paging on the captured instance URL, streamed downloads, one retry after a
 * 401 with a fresh token, and typed errors for throttling, other API errors, transport failures and
 * malformed 2xx bodies (invariant 6: never a crash).
 */
package io.sf2loki.salesforce.rest;
