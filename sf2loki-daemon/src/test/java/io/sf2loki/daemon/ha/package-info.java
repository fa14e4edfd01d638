/**
 * High availability end to end: real daemon processes (the daemon's main class on the test class
 * path) against the fake Salesforce and the fake Loki in the test JVM, killed, terminated, paused
 * and restarted.
 */
package io.sf2loki.daemon.ha;
