package io.sf2loki.source.pubsub;

import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.sf2loki.shape.Glob;
import io.sf2loki.shape.ShapingConfig;
import io.sf2loki.spi.ConfigSection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The bound {@code sources.pubsub} section.
 *
 * @param endpoint gRPC {@code host:port}
 * @param plaintext no TLS (local fakes only)
 * @param topics channels, or {@code "*"} to discover them; the {@code presets}' topics appended
 * @param include globs a discovered topic must match
 * @param exclude globs that remove a discovered topic
 * @param replayPreset where a topic without a stored position starts
 * @param invalidReplay what an expired or corrupt stored replay id leads to
 * @param credits {@code num_requested}: events pending per stream, 1 to 100
 * @param stallTimeout a stream silent this long is reconnected (the watchdog)
 * @param reconnectBase first reconnect delay (doubling, plus jitter)
 * @param reconnectMax the longest reconnect delay
 * @param callTimeout deadline of GetSchema and GetTopic
 * @param schemaCacheSize writer schemas kept
 * @param rediscoveryInterval how often {@code "*"} is discovered again; zero: only at start
 * @param sample per-topic-glob keep rates, first match wins
 * @param managedSubscriptions topics streamed with ManagedSubscribe, to the developer name of their
 *     ManagedEventSubscription
 * @param shaping transforms and metadata fields
 */
public record PubSubConfig(
    String endpoint,
    boolean plaintext,
    List<String> topics,
    List<Glob> include,
    List<Glob> exclude,
    ReplayPreset replayPreset,
    InvalidReplay invalidReplay,
    int credits,
    Duration stallTimeout,
    Duration reconnectBase,
    Duration reconnectMax,
    Duration callTimeout,
    int schemaCacheSize,
    Duration rediscoveryInterval,
    Map<Glob, Double> sample,
    Map<String, String> managedSubscriptions,
    ShapingConfig shaping) {

  /** The wildcard topic. */
  public static final String DISCOVER = "*";

  private static final Pattern TOPIC = Pattern.compile("/(event|data)/[A-Za-z0-9_]+");
  private static final Pattern DEVELOPER_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

  /** The policy for an expired or corrupt stored replay id. Never LATEST: that would be a gap. */
  public enum InvalidReplay {
    /** Resume from the oldest retained event, with an ERROR and a counter (duplicates, no gap). */
    EARLIEST,
    /** End the source's run: an operator sets the position ({@code state set}) or deletes it. */
    FAIL
  }

  public PubSubConfig {
    topics = List.copyOf(topics);
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    sample = Map.copyOf(sample);
    managedSubscriptions = Map.copyOf(managedSubscriptions);
  }

  /** The managed subscription {@code topic} is streamed with; empty: plain Subscribe. */
  public Optional<String> managedSubscription(String topic) {
    return Optional.ofNullable(managedSubscriptions.get(topic));
  }

  /** True when topics are discovered ({@code "*"}). */
  public boolean discovers() {
    return topics.contains(DISCOVER);
  }

  /** The explicitly listed topics. */
  public List<String> explicitTopics() {
    return topics.stream().filter(t -> !t.equals(DISCOVER)).toList();
  }

  /** Whether a discovered topic passes include and exclude. */
  public boolean admits(String topic) {
    return include.stream().anyMatch(g -> g.matches(topic))
        && exclude.stream().noneMatch(g -> g.matches(topic));
  }

  /** The keep rate of {@code topic}. */
  public double sampleRate(String topic) {
    return sample.entrySet().stream()
        .filter(e -> e.getKey().matches(topic))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(1.0);
  }

  /** Binds and validates {@code s}, recording every problem on it. */
  public static PubSubConfig bind(ConfigSection s) {
    List<String> topics = new ArrayList<>(s.stringList("topics"));
    for (String name : s.stringList("presets")) {
      PubSubPresets.preset(name)
          .ifPresentOrElse(
              preset -> preset.stream().filter(t -> !topics.contains(t)).forEach(topics::add),
              () ->
                  s.problem(
                      "presets",
                      s.path("presets")
                          + ": unknown preset '"
                          + name
                          + "' (known: "
                          + String.join(", ", PubSubPresets.names())
                          + ")"));
    }
    for (String t : topics) {
      if (!t.equals(DISCOVER) && !TOPIC.matcher(t).matches()) {
        s.problem(
            "topics", s.path("topics") + ": '" + t + "' is not /event/<Name> or /data/<Name>");
      }
    }
    Map<Glob, Double> sample = new LinkedHashMap<>();
    ConfigSection rates = s.section("sample");
    for (String glob : rates.keys()) {
      sample.put(Glob.of(glob), ShapingConfig.rate(rates, glob));
    }
    String preset = s.oneOf("replay_preset", Set.of("LATEST", "EARLIEST", "CUSTOM"));
    String invalid = s.oneOf("invalid_replay_id", Set.of("earliest", "fail"));
    Map<String, String> managed = s.stringMap("managed_subscriptions");
    managed.forEach(
        (topic, name) -> {
          String at = s.path("managed_subscriptions") + ".\"" + topic + "\"";
          if (!TOPIC.matcher(topic).matches()) {
            s.problem("managed_subscriptions", at + ": not /event/<Name> or /data/<Name>");
          } else if (!topics.contains(topic) && !topics.contains(DISCOVER)) {
            s.problem(
                "managed_subscriptions",
                at + ": " + topic + " is not in topics (list it there, or discover with \"*\")");
          }
          if (!DEVELOPER_NAME.matcher(name).matches()) {
            s.problem(
                "managed_subscriptions",
                at + ": '" + name + "' is not the developer name of a ManagedEventSubscription");
          }
        });
    return new PubSubConfig(
        s.requiredString("endpoint"),
        s.bool("plaintext"),
        List.copyOf(topics),
        globs(s.stringList("include")),
        globs(s.stringList("exclude")),
        preset.isEmpty() ? ReplayPreset.CUSTOM : ReplayPreset.valueOf(preset),
        "fail".equals(invalid) ? InvalidReplay.FAIL : InvalidReplay.EARLIEST,
        s.intInRange("default_num_requested", 1, 100),
        s.positiveDuration("stall_timeout"),
        s.positiveDuration("reconnect_base"),
        s.positiveDuration("reconnect_max"),
        s.positiveDuration("call_timeout"),
        s.intInRange("schema_cache_size", 1, 100_000),
        s.duration("rediscovery_interval"),
        sample,
        managed,
        ShapingConfig.bind(s));
  }

  private static List<Glob> globs(List<String> texts) {
    List<Glob> out = new ArrayList<>();
    texts.forEach(t -> out.add(Glob.of(t)));
    return out;
  }
}
