package io.sf2loki.coordinate.balance;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Rendezvous (highest random weight) hashing of replicas and shards: every replica computes the
 * same weight for a (replica, shard) pair, so each replica prefers a different set of shards, and
 * the preference of a replica for a shard does not change when other replicas come and go. A
 * replica above its cap hands over the shard it prefers least, so hand-overs are predictable (the
 * same shard again if the replica is again above its cap) rather than whichever renewed last.
 */
public final class Rendezvous {

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private Rendezvous() {}

  /** The weight of {@code shard} for {@code replica}: FNV-1a 64 of both, then a final mix. */
  public static long weight(String replica, String shard) {
    long h = FNV_OFFSET;
    for (byte b : (replica + '\n' + shard).getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * FNV_PRIME;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 33);
  }

  /** {@code shards} from the one {@code replica} prefers most to the one it prefers least. */
  public static List<String> preference(String replica, Collection<String> shards) {
    return shards.stream().sorted(byPreference(replica)).toList();
  }

  /** Orders shards from most to least preferred by {@code replica}; ties by name. */
  public static Comparator<String> byPreference(String replica) {
    return Comparator.comparingLong((String s) -> weight(replica, s))
        .reversed()
        .thenComparing(Comparator.naturalOrder());
  }
}
