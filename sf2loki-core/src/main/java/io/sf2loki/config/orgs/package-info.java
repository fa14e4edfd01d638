/**
 * Several Salesforce orgs in one process: {@code orgs = [...]} bound to one configuration per org
 * (a shard), each derived key by key from the top-level sections.
 */
package io.sf2loki.config.orgs;
