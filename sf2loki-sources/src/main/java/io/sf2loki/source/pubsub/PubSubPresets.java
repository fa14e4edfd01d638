package io.sf2loki.source.pubsub;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The named topic sets of {@code sources.pubsub.presets}: {@code threat_detection}, the channels of
 * the seven Threat Detection anomaly families ({@code UniversalAnomalyEvent} tells its kind by
 * {@code AnomalySubType}).
 */
final class PubSubPresets {

  static final List<String> THREAT_DETECTION =
      List.of(
          "/event/ApiAnomalyEvent",
          "/event/CredentialStuffingEvent",
          "/event/GuestUserAnomalyEvent",
          "/event/LoginAnomalyEvent",
          "/event/ReportAnomalyEvent",
          "/event/SessionHijackingEvent",
          "/event/UniversalAnomalyEvent");

  private static final Map<String, List<String>> PRESETS =
      Map.of("threat_detection", THREAT_DETECTION);

  private PubSubPresets() {}

  /** The topics of preset {@code name}, if it is one. */
  static Optional<List<String>> preset(String name) {
    return Optional.ofNullable(PRESETS.get(name));
  }

  static Set<String> names() {
    return new TreeSet<>(PRESETS.keySet());
  }
}
