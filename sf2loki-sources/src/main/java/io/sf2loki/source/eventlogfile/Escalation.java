package io.sf2loki.source.eventlogfile;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** WARN on the first and second consecutive failure of a thing, ERROR from the third. */
final class Escalation {

  private static final Logger LOG = LoggerFactory.getLogger(ElfTypeCycle.class);
  private final Map<String, Integer> streaks = new ConcurrentHashMap<>();

  void failed(String what, String message, Exception e) {
    int n = streaks.merge(what, 1, Integer::sum);
    String text = message + " (" + n + " in a row): " + e.getMessage();
    if (n >= 3) {
      LOG.error(text);
    } else {
      LOG.warn(text);
    }
  }

  void succeeded(String what) {
    streaks.remove(what);
  }

  /** True while the last attempt of {@code what} failed. */
  boolean failing(String what) {
    return streaks.containsKey(what);
  }
}
