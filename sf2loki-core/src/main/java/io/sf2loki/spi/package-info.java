/**
 * The service-provider interfaces that sources, sinks, checkpoint stores and coordinators
 * implement, the optional capabilities they may offer ({@link io.sf2loki.spi.EpochFloor}, {@link
 * io.sf2loki.spi.EpochClaim}, {@link io.sf2loki.spi.LeaseInspector}), the providers launchers
 * discover with {@link java.util.ServiceLoader}, the {@link io.sf2loki.spi.ConfigSection} through
 * which a provider binds its own config section, and the typed exceptions that tell a caller its
 * next move.
 *
 * <p>This package uses only {@code io.sf2loki.model} and the JDK (and Micrometer's registry
 * interface in the environments), never {@code config}, {@code shape} or a sink, so that an
 * implementation module compiles against the contracts alone.
 */
package io.sf2loki.spi;
