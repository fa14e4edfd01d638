/**
 * What the testkit's protocol fakes share: their shape ({@link io.sf2loki.testkit.ProtocolFake})
 * and one queue of scripted faults, matched in order beyond its head ({@link
 * io.sf2loki.testkit.FaultQueue}). The fakes themselves live in one package per protocol ({@code
 * loki}, {@code salesforce}, {@code gcs}); the demo simulator in {@code sim}.
 */
package io.sf2loki.testkit;
