package io.sf2loki.config.orgs;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import java.util.Optional;

/**
 * One element of {@code orgs}, its name validated.
 *
 * @param index its position in the list, from 0
 * @param name {@code orgs[index].name}
 * @param element the whole element as written
 */
record OrgEntry(int index, String name, ConfigObject element) {

  /** {@code orgs[index]}: how problems name the element. */
  String path() {
    return path(index);
  }

  static String path(int index) {
    return "orgs[" + index + "]";
  }

  /** The element's object at {@code key} ({@code salesforce}, {@code sources}), when set. */
  Optional<ConfigObject> section(String key) {
    ConfigValue value = element.get(key);
    return value instanceof ConfigObject object ? Optional.of(object) : Optional.empty();
  }

  /** The element's value at the dotted {@code path} ({@code sink.loki.tenant_id}), when set. */
  Optional<ConfigValue> value(String path) {
    com.typesafe.config.Config config = element.toConfig();
    return config.hasPath(path) ? Optional.of(config.getValue(path)) : Optional.empty();
  }
}
