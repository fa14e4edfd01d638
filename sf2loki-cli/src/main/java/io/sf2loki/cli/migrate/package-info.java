/**
 * {@code config migrate}: converts a Python sf2loki YAML configuration into this project's HOCON,
 * key by key after the mapping in the configuration reference (a multi-org file into {@code orgs =
 * [...]}), and reports where every key went and every key that has no equivalent or means something
 * else here, so nothing changes silently on the way over.
 */
package io.sf2loki.cli.migrate;
