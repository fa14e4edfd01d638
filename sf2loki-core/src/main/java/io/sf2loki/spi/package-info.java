/**
 * The service-provider interfaces that sources, sinks, checkpoint stores and coordinators
 * implement, the optional capabilities they may offer ({@link io.sf2loki.spi.EpochFloor}, {@link
 * io.sf2loki.spi.EpochClaim}, {@link io.sf2loki.spi.LeaseInspector}), the providers launchers
 * discover with {@link java.util.ServiceLoader}, and the typed exceptions that tell a caller its
 * next move.
 */
package io.sf2loki.spi;
