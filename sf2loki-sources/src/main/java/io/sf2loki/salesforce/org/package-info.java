/**
 * The session of one Salesforce org that every source of the org shares: one HTTP client and one
 * token provider, a login at start and the org id it resolves ({@code salesforce.org_id}, else the
 * identity URL of the token response, else userinfo).
 */
package io.sf2loki.salesforce.org;
