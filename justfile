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

# Run the daemon against the local simulator (fake Salesforce + fake Loki) and show what arrived.
demo:
    bash scripts/demo.sh
