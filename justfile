# The commands people type. `just --list` shows them.

mvn := "mvn -B --no-transfer-progress"

# The full gate: format check, compile with warnings as errors, every module's tests, shaded jars
# (the README's `mvn -B verify`).
test:
    {{mvn}} verify

# Compile and package the runnable jars without running tests.
build:
    {{mvn}} -DskipTests package

# Reformat the Java sources (google-java-format through Spotless).
fmt:
    {{mvn}} spotless:apply

# Remove build output.
clean:
    {{mvn}} clean

# Regenerate the committed configuration reference from the modules' reference.conf.
docs: build
    java -jar sf2loki-cli/target/sf2loki-cli.jar config reference > docs/configuration.md

# Run the daemon against the local simulator (fake Salesforce + fake Loki) and show what arrived.
demo:
    bash scripts/demo.sh

# JMH encode benchmarks: ours vs the floor vs loki4j (docs/performance.md). Extra JMH options pass
# through, e.g. `just bench -f 1 -wi 2 -i 3` for a quick run, or a benchmark name regex.
bench *ARGS:
    {{mvn}} -q -pl sf2loki-loki -am -Pbench -Dbench.args='LokiEncodeBenchmark {{ARGS}}' process-test-classes

# End-to-end throughput and peak heap: in-memory source -> Pipeline -> LokiSink -> fake Loki
# (docs/performance.md). Options are key=value, e.g. `just bench-e2e receiver=decode entries=500000`;
# JVM flags through BENCH_JVM, e.g. `BENCH_JVM=-Xmx192m just bench-e2e queue_max_bytes=67108864`.
bench-e2e *ARGS:
    {{mvn}} -q -pl sf2loki-loki -am -Pbench "-Dbench.jvm=${BENCH_JVM:--Xmx1g}" -Dbench.main=io.sf2loki.bench.EndToEndBenchmark '-Dbench.args={{ARGS}}' process-test-classes

# A ~500 MB LogFile streamed from the fake Salesforce through the EventLogFile source with -Xmx256m
# (docs/performance.md). The argument is the row count (2,520,000 rows ≈ 500 MB).
bench-elf ROWS="2520000":
    {{mvn}} -q -pl sf2loki-sources -am -Pbench-elf -Dbench.args={{ROWS}} process-test-classes

# Salesforce API calls of the EventLogFile source, counted by the fake org (docs/performance.md):
# `mode=day` (default) simulates a day on the controllable clock (`types=20 budget=on|off
# limit=15000`); `mode=catchup` drains `days=7` x `types=20` Hourly files with `latency_ms=150`.
# The fake's JDK HttpServer runs with TCP_NODELAY (see docs/performance.md §5).
bench-elf-calls *ARGS:
    {{mvn}} -q -pl sf2loki-sources -am -Pbench-elf "-Dbench.jvm=${BENCH_JVM:--Xmx512m -Dsun.net.httpserver.nodelay=true}" -Dbench.main=io.sf2loki.source.eventlogfile.ElfApiCostBenchmark '-Dbench.args={{ARGS}}' process-test-classes

# Event Log Objects through kill -9 and restarts (docs/performance.md): the fake org holds `rows`
# (1,000,000) rows over `days` (20) in `objects` (10) Event Log Objects, a tie of `tie` (5,000) rows
# on one millisecond in each, per-row visibility lag 0-45 min; the eventlog_objects source runs in a
# child JVM on the simulated clock and gets `kills` (5) SIGKILLs and restarts. Prints lost,
# re-sent, refused queries and API calls per simulated day against their bounds.
bench-elo *ARGS:
    {{mvn}} -q -pl sf2loki-sources -am -Pbench-elf "-Dbench.jvm=${BENCH_JVM:--Xmx4g -Dsun.net.httpserver.nodelay=true}" -Dbench.main=io.sf2loki.source.eventlogobjects.EloRestartBenchmark '-Dbench.args={{ARGS}}' process-test-classes

# Freshness of one category (Login), event time -> accepted by the fake Loki, p50/p99, through
# EventLogFile (Hourly files 3-6 h after their hour) and through its Event Log Object, each with
# its defaults, on a simulated clock (docs/performance.md). Options: `days=2 per_hour=60 seed=1`.
bench-elo-freshness *ARGS:
    {{mvn}} -q -pl sf2loki-sources -am -Pbench-elf "-Dbench.jvm=${BENCH_JVM:--Xmx1g -Dsun.net.httpserver.nodelay=true}" -Dbench.main=io.sf2loki.source.eventlogfile.EloFreshnessBenchmark '-Dbench.args={{ARGS}}' process-test-classes

# Pub/Sub freshness (publish in the fake -> accepted by the fake Loki, p50/p99) at 1,000 events/s
# while an EventLogFile drain fills the bulk lane, and one subscription's events/s ceiling, each
# against a floor (docs/performance.md). Options are key=value, e.g. `just bench-pubsub
# mode=freshness seconds=60` or `mode=ceiling rtt=5ms` (a link's round trip between the fake and
# every subscriber), or configuration: `sink.loki.batch.flush_interval=200ms`.
bench-pubsub *ARGS:
    {{mvn}} -q -pl sf2loki-daemon -am -Pbench-pubsub "-Dbench.jvm=${BENCH_JVM:--Xmx2g}" '-Dbench.args={{ARGS}}' process-test-classes

# Time for a dead replica's shards to be led again: N daemon processes over M orgs (a lease per org),
# kill -9 of the busiest replica, against the floor ttl + renew interval; and the spread of shards
# over replicas after each churn step (kill, restart, scale up, scale down) (docs/performance.md).
# Options are key=value: `leases=file_lease|k8s_lease|both processes=3 orgs=4 kills=6 ttl=3s renew=1s`.
bench-failover *ARGS:
    {{mvn}} -q -pl sf2loki-daemon -am -Pbench-failover '-Dbench.args={{ARGS}}' process-test-classes

# The same encode operations timed by thread CPU time (robust on a loaded machine); argument = rounds.
bench-cpu ROUNDS="5":
    {{mvn}} -q -pl sf2loki-loki -am -Pbench -Dbench.main=io.sf2loki.loki.EncodeCpuProbe -Dbench.args={{ROUNDS}} process-test-classes

# The OTLP sink's encoder against its floor (protobuf serialisation with the official classes +
# gzip), JMH; extra JMH options pass through (docs/performance.md).
bench-otlp *ARGS:
    {{mvn}} -q -pl sf2loki-otlp -am -Pbench-otlp -Dbench.args='OtlpEncodeBenchmark {{ARGS}}' process-test-classes

# The same OTLP encode operations timed by thread CPU time; arguments = rounds, gzip level.
bench-otlp-cpu ROUNDS="5" LEVEL="1":
    {{mvn}} -q -pl sf2loki-otlp -am -Pbench-otlp -Dbench.main=io.sf2loki.otlp.OtlpEncodeCpuProbe '-Dbench.args={{ROUNDS}} {{LEVEL}}' process-test-classes

# The OTLP sink end to end next to the Loki sink, in one run: the same in-memory source and entries
# through the Pipeline into each, to lean loopback receivers, alternating (docs/performance.md).
# Options are key=value, e.g. `just bench-e2e-otlp receiver=decode rounds=5 compression=none`.
bench-e2e-otlp *ARGS:
    {{mvn}} -q -pl sf2loki-otlp -am -Pbench-otlp "-Dbench.jvm=${BENCH_JVM:--Xmx1g}" -Dbench.main=io.sf2loki.bench.OtlpEndToEndBenchmark '-Dbench.args={{ARGS}}' process-test-classes

# Kafka Connect: entries/s of the source connector (fake org -> topic) and the sink connector
# (topic -> fake Loki) next to the daemon's engine (fake org -> fake Loki), alternating in one run,
# one distributed worker over a KRaft broker in the same JVM (docs/performance.md). Options are
# key=value: `just bench-connect rounds=3 types=4 hours=6 rows=10000 tasks=1`. `kafka_cpus=1
# bench_cpus=0` runs the broker in a JVM of its own pinned to CPU 1 (taskset) and pins the bench
# JVM (engine, Connect worker, fakes, counting consumer) to CPU 0: Kafka off sf2loki's core.
bench-connect *ARGS:
    {{mvn}} -q -pl sf2loki-kafka-connect -am -Pbench-connect "-Dbench.jvm=${BENCH_JVM:--Xmx2g}" '-Dbench.args={{ARGS}}' process-test-classes

# MINUTES of seeded random faults in all on a file_lease pair of daemon processes against the
# simulator, half with the file store, half with S3 (s3proxy); `just soak 10 SEED` replays the
# printed seed's faults. Report and logs: sf2loki-daemon/target/soak/.
# The chaos soak (docs/reliability.md): kills, pauses, lease and wire faults, then proof nothing was lost.
soak MINUTES="3" SEED="":
    bash scripts/soak.sh {{MINUTES}} {{SEED}}
