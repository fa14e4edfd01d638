package io.sf2loki.shape;

import java.util.Map;

/**
 * Capability of a {@link io.sf2loki.spi.SourceProvider.Factory} whose source ingests Salesforce
 * event categories; {@link OverlapGuard} finds it with {@code instanceof}. Sources with a category
 * of their own (ApexLog) do not implement it.
 */
public interface CategoryClaims {

  /**
   * The explicitly configured identifiers (object names, topics, ELF types) mapped to their
   * category ({@link Categories}). Wildcards are not listed.
   */
  Map<String, String> explicitCategories();

  /** True when the source also discovers identifiers at run time ({@code "*"}). */
  default boolean discovers() {
    return false;
  }
}
