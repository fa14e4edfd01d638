package io.sf2loki.spi;

/**
 * Common shape of the providers launchers discover with {@link java.util.ServiceLoader}: a config
 * type name and a binding step that validates configuration without I/O.
 *
 * <p>Implementations have a public no-argument constructor that performs no I/O.
 *
 * @param <F> the bound factory that creates the component
 */
public interface ComponentProvider<F> {

  /** The config type name that selects this provider ({@code file}, {@code k8s_lease}, ...). */
  String type();

  /**
   * Reads and validates this provider's config section, recording every problem on {@code section}
   * (never throwing for bad input) and performing no network or store I/O. Called on the launcher's
   * thread, once per load. The returned factory is only used when the load collected no problems.
   *
   * @param section the provider's own section, e.g. {@code state.s3} or {@code sources.apexlog};
   *     {@link ConfigSection#root()} reaches shared sections such as {@code salesforce}
   */
  F configure(ConfigSection section);
}
