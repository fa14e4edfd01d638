/**
 * Configuration: HOCON read with Typesafe Config from the modules' {@code reference.conf} defaults,
 * the user's file and {@code SF2LOKI_} environment overrides; bound to records through a {@link
 * io.sf2loki.config.ConfigReader} (the {@link io.sf2loki.spi.ConfigSection} providers see) that
 * collects every problem with its key path before any network call; and documented from the same
 * {@code reference.conf} comments.
 */
package io.sf2loki.config;
