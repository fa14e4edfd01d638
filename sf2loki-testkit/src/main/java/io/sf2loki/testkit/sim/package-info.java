/**
 * The runnable simulator behind {@code just demo}: {@code java -jar sf2loki-testkit.jar simulate}
 * runs the fake Salesforce (generating EventLogFile activity continuously), the fake Pub/Sub API
 * (publishing a trickle of logins, platform events and change events) and the fake Loki until
 * killed; {@code report} summarises what arrived in a running fake Loki. It depends on nothing of
 * sf2loki's own code.
 */
package io.sf2loki.testkit.sim;
