package io.sf2loki.source.pubsub;

import com.fasterxml.jackson.databind.JsonNode;
import com.salesforce.eventbus.protobuf.TopicInfo;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.shape.Categories;
import io.sf2loki.source.pubsub.client.PubSubCallException;
import io.sf2loki.source.pubsub.client.PubSubClient;
import io.sf2loki.spi.CategoryOwnership;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics of a run: the explicit ones, plus with {@code "*"} the org's streamable channels found
 * in its object list — Real-Time Event Monitoring streams of both generations ({@code
 * …EventStream}, and {@code …Event} where a {@code …EventStore} exists), platform events ({@code
 * /event/X__e}) and change events ({@code /data/…ChangeEvent}) — through include/exclude, the
 * overlap guard and a GetTopic {@code can_subscribe} check.
 */
final class TopicDiscovery {

  private static final Logger LOG = LoggerFactory.getLogger(TopicDiscovery.class);

  private final PubSubConfig config;
  private final SalesforceRestClient rest;
  private final PubSubClient client;
  private final CategoryOwnership ownership;
  private final PubSubMetrics metrics;

  TopicDiscovery(
      PubSubConfig config,
      SalesforceRestClient rest,
      PubSubClient client,
      CategoryOwnership ownership,
      PubSubMetrics metrics) {
    this.config = config;
    this.rest = rest;
    this.client = client;
    this.ownership = ownership;
    this.metrics = metrics;
  }

  /** The topics to subscribe to now. */
  Set<String> topics() throws Exception {
    Set<String> out = new LinkedHashSet<>();
    for (String t : config.explicitTopics()) {
      check(t); // explicit topics are subscribed even when refused: a fixed org needs no restart
      out.add(t);
    }
    if (config.discovers()) {
      for (String t : candidates(rest.getJson(rest.dataPath("sobjects")))) {
        if (out.contains(t) || !config.admits(t)) {
          continue;
        }
        if (!ownership.mayIngestDiscovered(
            PubSubSource.SOURCE, Categories.ofIdentifier(EventEntries.eventType(t)))) {
          LOG.info("pubsub: skipping discovered {}: another source owns its category", t);
          continue;
        }
        if (check(t)) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** The channels an object list names. */
  static List<String> candidates(JsonNode describe) {
    Set<String> names = new LinkedHashSet<>();
    describe.path("sobjects").forEach(o -> names.add(o.path("name").asText("")));
    List<String> out = new ArrayList<>();
    for (String n : names) {
      if (n.endsWith("EventStream") || n.endsWith("__e")) {
        out.add("/event/" + n);
      } else if (n.endsWith("ChangeEvent")) {
        out.add("/data/" + n);
      } else if (n.endsWith("Event") && names.contains(n + "Store")) {
        out.add("/event/" + n);
      }
    }
    return out;
  }

  /** GetTopic: true when the user may subscribe; a refusal names the permission it needs. */
  private boolean check(String topic) throws InterruptedException {
    try {
      TopicInfo info = client.topic(topic);
      if (info.getCanSubscribe()) {
        return true;
      }
      metrics.refused(topic);
      LOG.error("pubsub {}: the user may not subscribe: {}", topic, permission(topic));
    } catch (PubSubCallException e) {
      metrics.refused(topic);
      LOG.error("pubsub {}: {}", topic, e.getMessage());
    }
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedException();
    }
    return false;
  }

  /** The permission a refusal of {@code topic} most likely lacks. */
  static String permission(String topic) {
    return TopicPermissions.hint(topic);
  }
}
