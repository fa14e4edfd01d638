package io.sf2loki.source.pubsub.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplayIdsTest {

  @Test
  void storesTheRawBytesAsStandardBase64WithPadding() {
    ByteString id = ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 7, (byte) 0xde, (byte) 0xc4});
    assertThat(ReplayIds.encode(id)).isEqualTo("AAAAAAAH3sQ=");
    assertThat(ReplayIds.decode("AAAAAAAH3sQ=")).contains(id);
  }

  @Test
  void rejectsWhatIsNotStrictBase64() {
    assertThat(ReplayIds.decode("")).isEmpty();
    assertThat(ReplayIds.decode("AAAAAAAH3sQ")).isEmpty();
    assertThat(ReplayIds.decode("AAAA AAAH3sQ=")).isEmpty();
    assertThat(ReplayIds.decode("12907414!")).isEmpty();
  }

  @Test
  void aStoredPositionWinsOverThePresetAndCustomWithoutOneIsLatest() {
    ByteString id = ByteString.copyFromUtf8("x");
    assertThat(ReplayStart.of(Optional.of(id), ReplayPreset.EARLIEST))
        .isEqualTo(ReplayStart.after(id));
    assertThat(ReplayStart.of(Optional.empty(), ReplayPreset.CUSTOM).preset())
        .isEqualTo(ReplayPreset.LATEST);
  }
}
