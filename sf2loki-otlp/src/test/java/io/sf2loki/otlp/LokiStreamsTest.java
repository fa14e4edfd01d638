package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.StringMap;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Loki stream the sink expects Loki's OTLP endpoint to make of a record. */
class LokiStreamsTest {

  static final LogRecordMapping MAPPING =
      new LogRecordMapping("salesforce", Optional.of("acme"), Optional.empty());

  final LokiStreams streams = new LokiStreams(MAPPING, List.of("event_type", "source", "late"));

  @Test
  void theResourceInLokisDefaultListAndTheIndexedAttributesMakeTheStream() {
    StringMap labels =
        StringMap.of("event_type", "Login", "source", "eventlogfile", "job", "sf2loki");

    assertThat(streams.of(labels, StringMap.of("USER_ID", "005x")))
        .isEqualTo(
            StringMap.of(
                "event_type", "Login",
                "service_name", "salesforce",
                "service_namespace", "acme",
                "source", "eventlogfile"));
  }

  @Test
  void theResourceLabelsOfAnEntryOverrideTheConfiguredResource() {
    StringMap labels =
        StringMap.of("org", "beta", "environment", "prod", "service_name", "sf", "source", "x");

    assertThat(streams.of(labels, StringMap.of()))
        .isEqualTo(
            StringMap.of(
                "deployment_environment_name", "prod",
                "service_name", "sf",
                "service_namespace", "beta",
                "source", "x"));
  }

  @Test
  void aRoutedEntrysLateLabelIsAStreamOfItsOwn() {
    StringMap onTime = StringMap.of("event_type", "Login", "source", "eventlogfile");
    StringMap routed = StringMap.of("event_type", "Login", "late", "1", "source", "eventlogfile");

    assertThat(streams.of(routed, StringMap.of()))
        .isNotEqualTo(streams.of(onTime, StringMap.of()))
        .containsEntry("late", "1");
  }

  @Test
  void anIndexedAttributeFromStructuredMetadataCountsButLevelIsTheSeverityNotAnAttribute() {
    LokiStreams byMetadata = new LokiStreams(MAPPING, List.of("LOGIN_STATUS", "level"));

    StringMap stream =
        byMetadata.of(
            StringMap.of("source", "eventlogfile"),
            StringMap.of("LOGIN_STATUS", "LOGIN_NO_ERROR", "level", "info"));

    assertThat(stream).containsEntry("LOGIN_STATUS", "LOGIN_NO_ERROR").doesNotContainKey("level");
  }

  @Test
  void entriesOfOneLabelSetShareOneStreamInstance() {
    StringMap labels = StringMap.of("event_type", "Login", "source", "eventlogfile");

    assertThat(streams.of(labels, StringMap.of("a", "1")))
        .isSameAs(streams.of(labels, StringMap.of("b", "2")));
  }

  @Test
  void attributeNamesAreNormalisedAsLokisLabelNamerDoes() {
    assertThat(LokiStreams.labelName("deployment.environment.name"))
        .isEqualTo("deployment_environment_name");
    assertThat(LokiStreams.labelName("a.-b__c")).isEqualTo("a_b_c");
    assertThat(LokiStreams.labelName("2fa")).isEqualTo("key_2fa");
    assertThat(LokiStreams.labelName("__x.y__")).isEqualTo("__x_y__");
    assertThat(LokiStreams.labelName("___")).isNull();
    assertThat(LokiStreams.labelName("")).isNull();
  }
}
