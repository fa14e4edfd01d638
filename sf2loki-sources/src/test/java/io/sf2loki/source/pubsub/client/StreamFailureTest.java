package io.sf2loki.source.pubsub.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import io.grpc.Status;
import org.junit.jupiter.api.Test;

class StreamFailureTest {

  private static Metadata trailer(String code) {
    Metadata m = new Metadata();
    m.put(StreamFailure.ERROR_CODE, "sfdc.platform.eventbus.grpc." + code);
    return m;
  }

  @Test
  void aCorruptedReplayIdTrailerIsACorruptReplay() {
    assertThat(
            StreamFailure.of(
                Status.INVALID_ARGUMENT, trailer("subscription.fetch.replayid.corrupted")))
        .isInstanceOf(StreamFailure.CorruptReplay.class);
  }

  @Test
  void anAuthTrailerOrUnauthenticatedIsAnAuthFailure() {
    assertThat(StreamFailure.of(Status.UNAUTHENTICATED, trailer("service.auth.error")))
        .isInstanceOf(StreamFailure.Auth.class);
    assertThat(StreamFailure.of(Status.UNAUTHENTICATED, new Metadata()))
        .isInstanceOf(StreamFailure.Auth.class);
  }

  @Test
  void aResetStreamWithoutTrailerIsTransient() {
    assertThat(StreamFailure.of(Status.UNAVAILABLE.withDescription("RST_STREAM"), null))
        .isInstanceOf(StreamFailure.Transient.class);
  }

  @Test
  void anOtherInvalidArgumentTrailerKeepsThePositionAsAPermanentFailure() {
    StreamFailure f =
        StreamFailure.of(
            Status.INVALID_ARGUMENT, trailer("subscription.fetch.replayid.validation.failed"));
    assertThat(f).isInstanceOf(StreamFailure.Permanent.class);
    assertThat(f.code()).isEqualTo("subscription.fetch.replayid.validation.failed");
  }

  @Test
  void aMissingTopicIsPermanent() {
    assertThat(StreamFailure.of(Status.NOT_FOUND, trailer("topic.not.found")))
        .isInstanceOf(StreamFailure.Permanent.class);
  }

  @Test
  void aManagedSubscriptionAnotherClientStreamsIsInUseWhateverItsStatus() {
    assertThat(
            StreamFailure.of(
                Status.FAILED_PRECONDITION, trailer("managed.subscription.already.active")))
        .isInstanceOf(StreamFailure.InUse.class);
    assertThat(StreamFailure.of(Status.UNKNOWN, trailer("managed.subscription.already.active")))
        .isInstanceOf(StreamFailure.InUse.class);
  }

  @Test
  void aManagedSubscriptionThatIsNotRunningIsPermanent() {
    assertThat(
            StreamFailure.of(
                Status.FAILED_PRECONDITION, trailer("managed.subscription.config.stopped")))
        .isInstanceOf(StreamFailure.Permanent.class);
  }
}
