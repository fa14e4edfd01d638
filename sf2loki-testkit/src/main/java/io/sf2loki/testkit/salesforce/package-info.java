/**
 * A fake Salesforce org over real HTTP (JDK {@code HttpServer}, ephemeral port): the OAuth token
 * endpoint for the JWT bearer and client credentials flows (verifying the RS256 signature against a
 * configured public key), userinfo, REST and Tooling query for the SOQL shapes sf2loki issues with
 * {@code nextRecordsUrl} paging, streamed {@code LogFile} CSV downloads generated from a seed, the
 * daily API allocation ({@code Sforce-Limit-Info} on every REST answer, {@code /limits}, {@code
 * REQUEST_LIMIT_EXCEEDED} once spent; see {@link io.sf2loki.testkit.salesforce.ApiUsage}),
 * sobjects, scripted faults ({@code POST /testkit/faults}) and production statistics ({@code GET
 * /testkit/stats}).
 *
 * <p>It depends on nothing of sf2loki's own code: it checks our wire formats independently.
 */
package io.sf2loki.testkit.salesforce;
