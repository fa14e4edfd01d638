/** Time a test controls: a wall clock that only moves when told to. */
package io.sf2loki.testkit.time;
