package io.sf2loki.spi;

import java.util.List;

/**
 * Creates the {@link Source}s of one stream family; its section is {@code sources.<type>}, which
 * always has an {@code enabled} flag. Register in {@code
 * META-INF/services/io.sf2loki.spi.SourceProvider}.
 *
 * <p>{@link #configure} is only called for enabled families, so disabled ones never demand
 * settings.
 */
public interface SourceProvider extends ComponentProvider<SourceProvider.Factory> {

  /** A validated source configuration. */
  interface Factory {

    /** Creates the sources for one leadership run. */
    List<Source> create(SourceEnvironment environment);
  }
}
