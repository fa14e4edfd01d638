#!/usr/bin/env bash
# `just demo`: the whole path on one machine, no Salesforce or Loki account needed.
# Builds the jars, starts the simulator (fake Salesforce, fake Pub/Sub API, fake Loki), runs the
# daemon with examples/demo.conf for DEMO_SECONDS, stops it with SIGTERM, prints what reached the
# fake Loki and cleans up. Needs only a JDK 17+, Maven and bash.
# DEMO_SINK=otlp exports through the OTLP sink (sink.type = otlp) to the simulator's fake OTLP
# receiver, Loki 3's /otlp endpoint as it were, instead of pushing to the fake Loki.
set -euo pipefail

cd "$(dirname "$0")/.."
DEMO_SECONDS="${DEMO_SECONDS:-25}"
SF_PORT=18080
LOKI_PORT=13100
PUBSUB_PORT=17443
OTLP_PORT=14318
DEMO_SINK="${DEMO_SINK:-loki}"
case "$DEMO_SINK" in
  loki | otlp) ;;
  *) echo "DEMO_SINK must be loki or otlp (got '$DEMO_SINK')" >&2; exit 2 ;;
esac
DEMO_DIR="$PWD/target/demo"
SIMULATOR_JAR=sf2loki-testkit/target/sf2loki-testkit.jar
DAEMON_JAR=sf2loki-daemon/target/sf2loki-daemon.jar

sim_pid=""
daemon_pid=""
tail_pid=""
cleanup() {
  for pid in "$tail_pid" "$daemon_pid" "$sim_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { printf '\n==> %s\n' "$*"; }

if [ "${DEMO_SKIP_BUILD:-}" != "1" ]; then
  step "Building the daemon and the simulator (tests skipped)"
  mvn -B -q --no-transfer-progress -DskipTests -pl sf2loki-daemon,sf2loki-testkit -am package
fi

rm -rf "$DEMO_DIR"
mkdir -p "$DEMO_DIR"

step "Starting the simulator (fake Salesforce on :$SF_PORT, Pub/Sub on :$PUBSUB_PORT, Loki on :$LOKI_PORT, OTLP on :$OTLP_PORT)"
java -jar "$SIMULATOR_JAR" simulate --salesforce-port "$SF_PORT" --loki-port "$LOKI_PORT" \
  --pubsub-port "$PUBSUB_PORT" --otlp-port "$OTLP_PORT" --seed 1 >"$DEMO_DIR/simulator.log" 2>&1 &
sim_pid=$!
for _ in $(seq 1 60); do
  if grep -q '^stop with' "$DEMO_DIR/simulator.log" 2>/dev/null; then break; fi
  if ! kill -0 "$sim_pid" 2>/dev/null; then
    echo "the simulator did not start (ports $SF_PORT/$LOKI_PORT/$PUBSUB_PORT/$OTLP_PORT busy?):" >&2
    cat "$DEMO_DIR/simulator.log" >&2
    exit 1
  fi
  sleep 0.5
done
sed 's/^/    /' "$DEMO_DIR/simulator.log"

sink_env=()
report_target=(--loki-url "http://127.0.0.1:$LOKI_PORT")
if [ "$DEMO_SINK" = otlp ]; then
  # the environment overrides examples/demo.conf (SF2LOKI_ variables, docs/configuration.md)
  sink_env=(SF2LOKI_SINK__TYPE=otlp "SF2LOKI_SINK__OTLP__URL=http://127.0.0.1:$OTLP_PORT/otlp")
  report_target=(--otlp-url "http://127.0.0.1:$OTLP_PORT")
fi

step "Running the daemon with examples/demo.conf and sink.type = $DEMO_SINK for ${DEMO_SECONDS}s (health on http://127.0.0.1:18090)"
env ${sink_env[@]+"${sink_env[@]}"} DEMO_DIR="$DEMO_DIR" java -jar "$DAEMON_JAR" \
  --config examples/demo.conf >"$DEMO_DIR/daemon.log" 2>&1 &
daemon_pid=$!
tail -n +1 -f "$DEMO_DIR/daemon.log" &
tail_pid=$!
sleep "$DEMO_SECONDS"

step "Stopping the daemon with SIGTERM (it drains, commits and exits 0)"
kill -TERM "$daemon_pid"
daemon_exit=0
wait "$daemon_pid" || daemon_exit=$?
daemon_pid=""
sleep 0.5
kill "$tail_pid" 2>/dev/null || true
wait "$tail_pid" 2>/dev/null || true
tail_pid=""
echo "    daemon exit code: $daemon_exit"

step "What arrived in the fake $([ "$DEMO_SINK" = otlp ] && echo "OTLP receiver" || echo Loki)"
java -jar "$SIMULATOR_JAR" report "${report_target[@]}" \
  --salesforce-url "http://127.0.0.1:$SF_PORT" --samples 8 | sed 's/^/    /'

step "Checkpoints committed to $DEMO_DIR/state.json"
grep -o '"\(eventlogfile\|pubsub\):[A-Za-z/_]*"' "$DEMO_DIR/state.json" | sed 's/^/    /' || true
echo
echo "Logs are in $DEMO_DIR. Next: examples/ for production configs, docs/ for the details."
exit "$daemon_exit"
