package io.sf2loki.source.pubsub.replay;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a subscription starts.
 *
 * @param preset the first FetchRequest's {@code replay_preset}
 * @param replayId the id to start after; only with {@link ReplayPreset#CUSTOM}
 */
public record ReplayStart(ReplayPreset preset, ByteString replayId) {

  public ReplayStart {
    Objects.requireNonNull(preset, "preset");
    Objects.requireNonNull(replayId, "replayId");
    if ((preset == ReplayPreset.CUSTOM) == replayId.isEmpty()) {
      throw new IllegalArgumentException("a replay id goes with CUSTOM and only with it");
    }
  }

  /** Resume after {@code id}. */
  public static ReplayStart after(ByteString id) {
    return new ReplayStart(ReplayPreset.CUSTOM, id);
  }

  /** The oldest retained event. */
  public static ReplayStart earliest() {
    return new ReplayStart(ReplayPreset.EARLIEST, ByteString.EMPTY);
  }

  /**
   * The start of a run: after the stored position when there is one, else the configured preset
   * ({@code CUSTOM} without a stored id is {@code LATEST}).
   */
  public static ReplayStart of(Optional<ByteString> stored, ReplayPreset configured) {
    if (stored.isPresent()) {
      return after(stored.get()); // a stored position always wins over LATEST/EARLIEST
    }
    return new ReplayStart(
        configured == ReplayPreset.CUSTOM ? ReplayPreset.LATEST : configured, ByteString.EMPTY);
  }

  /** True when resuming from a stored position. */
  public boolean custom() {
    return preset == ReplayPreset.CUSTOM;
  }

  @Override
  public String toString() {
    return custom() ? "CUSTOM after " + ReplayIds.hex(replayId) : preset.name();
  }
}
