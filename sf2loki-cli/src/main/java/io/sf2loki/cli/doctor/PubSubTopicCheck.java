package io.sf2loki.cli.doctor;

import com.salesforce.eventbus.protobuf.TopicInfo;
import io.sf2loki.source.pubsub.PubSubConfig;
import io.sf2loki.source.pubsub.TopicPermissions;
import io.sf2loki.source.pubsub.client.PubSubCallException;
import io.sf2loki.source.pubsub.client.PubSubClient;
import java.util.List;

/**
 * {@code pubsub:<topic>}: GetTopic on the configured Pub/Sub endpoint with the run's token; the
 * user must be allowed to subscribe ({@code can_subscribe}).
 */
final class PubSubTopicCheck implements Check {

  private final PubSubConfig config;
  private final String topic;

  PubSubTopicCheck(PubSubConfig config, String topic) {
    this.config = config;
    this.topic = topic;
  }

  @Override
  public String name() {
    return "pubsub:" + topic;
  }

  @Override
  public List<String> requires() {
    return List.of(AuthCheck.NAME);
  }

  @Override
  public CheckResult run(DoctorContext context) throws Exception {
    SalesforceProbe salesforce = context.salesforce();
    String tenant =
        context.config().salesforce().orgId().isPresent()
            ? context.config().salesforce().orgId().get()
            : salesforce.orgId();
    try (PubSubClient client =
        new PubSubClient(
            config.endpoint(),
            config.plaintext(),
            1,
            salesforce.tokens(),
            () -> tenant,
            config.callTimeout())) {
      TopicInfo info = client.topic(topic);
      if (!info.getCanSubscribe()) {
        return new CheckResult.Fail(
            "the user may not subscribe (GetTopic can_subscribe = false)",
            TopicPermissions.hint(topic));
      }
      return new CheckResult.Pass("subscribable at " + config.endpoint());
    } catch (PubSubCallException e) {
      return new CheckResult.Fail(
          e.getMessage(),
          "check the topic name (sources.pubsub.topics) and sources.pubsub.endpoint; "
              + TopicPermissions.hint(topic));
    }
  }
}
