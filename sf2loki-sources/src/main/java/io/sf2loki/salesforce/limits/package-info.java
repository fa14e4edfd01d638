/**
 * The org's Salesforce API allocation: the {@code Sforce-Limit-Info} header of every REST answer,
 * the {@code /limits} poll and their gauges, and the {@link io.sf2loki.salesforce.limits.ApiBudget}
 * that slows the pollers down as sf2loki nears its configured share.
 */
package io.sf2loki.salesforce.limits;
