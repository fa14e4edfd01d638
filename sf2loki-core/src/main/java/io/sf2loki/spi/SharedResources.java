package io.sf2loki.spi;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * Objects the sources of one engine share across their families and leadership runs, created on
 * first use, such as the Salesforce API budget of an org that several pollers spend. Thread-safe.
 */
public final class SharedResources {

  private final ConcurrentMap<String, Object> byKey = new ConcurrentHashMap<>();

  /**
   * The object stored under {@code key}, created by {@code create} when there is none yet.
   *
   * @throws IllegalStateException when {@code key} holds an object of another type
   */
  public <T> T computeIfAbsent(String key, Class<T> type, Supplier<? extends T> create) {
    Objects.requireNonNull(create, "create");
    Object value = byKey.computeIfAbsent(key, k -> Objects.requireNonNull(create.get(), key));
    if (!type.isInstance(value)) {
      throw new IllegalStateException(
          key + " holds a " + value.getClass().getName() + ", not a " + type.getName());
    }
    return type.cast(value);
  }
}
