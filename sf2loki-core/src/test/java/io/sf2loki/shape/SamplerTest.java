package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SamplerTest {

  @Test
  void bucketIsTheUnsignedBigEndianSha256PrefixModuloTenThousand() {
    // Python: int.from_bytes(sha256(key).digest()[:8], "big") % 10000 -> 6929, 5397, 1692, 74
    assertThat(Sampler.keep("0Yw000000000001AAA", 0.6929)).isFalse();
    assertThat(Sampler.keep("0Yw000000000001AAA", 0.693)).isTrue();
    assertThat(Sampler.keep("0Yw000000000002AAA", 0.5)).isFalse();
    assertThat(Sampler.keep("07L000000000001AAA", 0.17)).isTrue();
    assertThat(Sampler.keep("abc", 0.0075)).isTrue();
    assertThat(Sampler.keep("abc", 0.0074)).isFalse();
  }

  @Test
  void decisionsAreStableAcrossRunsAndRoughlyProportional() {
    long kept1 = IntStream.range(0, 20_000).filter(i -> Sampler.keep("id-" + i, 0.25)).count();
    long kept2 = IntStream.range(0, 20_000).filter(i -> Sampler.keep("id-" + i, 0.25)).count();
    assertThat(kept1).isEqualTo(kept2).isBetween(4_600L, 5_400L);
    assertThat(IntStream.range(0, 1000).allMatch(i -> Sampler.keep("id-" + i, 1.0))).isTrue();
  }
}
