# The commands people type. `just --list` shows them.

mvn := "mvn -B --no-transfer-progress"

# The full gate: format check, compile with warnings as errors, every module's tests, shaded jars.
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

# JMH encode benchmarks: ours vs the floor vs loki4j (docs/performance.md). Extra JMH options pass
# through, e.g. `just bench -f 1 -wi 2 -i 3` for a quick run, or a benchmark name regex.
bench *ARGS:
    {{mvn}} -q -pl sf2loki-core -am -Pbench -Dbench.args='LokiEncodeBenchmark {{ARGS}}' process-test-classes
