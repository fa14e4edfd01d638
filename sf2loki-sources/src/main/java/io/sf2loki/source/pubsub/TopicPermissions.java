package io.sf2loki.source.pubsub;

/**
 * What a user needs to subscribe to a Pub/Sub topic, by the topic's family: the hint the source
 * logs when GetTopic refuses a topic, and the remedy {@code doctor} prints.
 */
public final class TopicPermissions {

  private TopicPermissions() {}

  /** The permission a refusal of {@code topic} most likely lacks. */
  public static String hint(String topic) {
    String name = EventEntries.eventType(topic);
    if (topic.startsWith("/data/")) {
      return "select "
          + name
          + " for Change Data Capture and grant the user View All Data (or"
          + " read access on the object)";
    }
    if (name.endsWith("__e")) {
      return "grant the user Read on the platform event " + name;
    }
    return "grant the user the View Real-Time Event Monitoring Data permission and enable"
        + " streaming of "
        + name
        + " in Event Manager";
  }
}
