package io.sf2loki.engine;

import io.sf2loki.spi.OrgSession;
import java.util.Objects;
import java.util.Optional;

/**
 * The sources of one shard exactly as its engine would run them, for a launcher that runs them
 * without the engine (the Kafka Connect source task): the term's sources and the org's session,
 * which the launcher logs in before the first {@link TermSources#create()} and closes last.
 *
 * @param sources creates the sources of one run; call it after the session's login, whose org id
 *     labels the entries
 * @param session the org's shared session, when an enabled family opens one
 */
public record ShardSources(TermSources sources, Optional<OrgSession> session) {

  public ShardSources {
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(session, "session");
  }
}
