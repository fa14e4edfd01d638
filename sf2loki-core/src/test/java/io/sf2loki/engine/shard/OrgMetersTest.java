package io.sf2loki.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OrgMetersTest {

  private final SimpleMeterRegistry process = new SimpleMeterRegistry();

  @Test
  void aMeterRegisteredThroughAnOrgsViewLandsInTheProcessRegistryTaggedWithTheOrg() {
    MeterRegistry prod = OrgMeters.of(process, "prod");

    prod.counter("sf2loki_events_ingested", "source", "eventlogfile").increment(3);

    assertThat(
            process
                .get("sf2loki_events_ingested")
                .tags(Tags.of("org", "prod", "source", "eventlogfile"))
                .counter()
                .count())
        .isEqualTo(3);
  }

  @Test
  void twoOrgsMetersOfOneNameAreSeparateSeries() {
    AtomicInteger prodLeads = new AtomicInteger(1);
    AtomicInteger emeaLeads = new AtomicInteger(0);
    OrgMeters.of(process, "prod").gauge("sf2loki_leader", prodLeads);
    OrgMeters.of(process, "emea").gauge("sf2loki_leader", emeaLeads);

    assertThat(process.get("sf2loki_leader").tag("org", "prod").gauge().value()).isEqualTo(1);
    assertThat(process.get("sf2loki_leader").tag("org", "emea").gauge().value()).isZero();
  }

  @Test
  void theProcessRegistrysFiltersStillApply() {
    process
        .config()
        .meterFilter(
            io.micrometer.core.instrument.config.MeterFilter.deny(
                id -> id.getName().equals("denied")));

    OrgMeters.of(process, "prod").counter("denied").increment();

    assertThat(process.find("denied").meters()).isEmpty();
  }
}
