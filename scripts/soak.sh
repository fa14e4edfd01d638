#!/usr/bin/env bash
# `just soak [MINUTES] [SEED]`: the chaos soak (docs/reliability.md). Builds the daemon's shaded jar
# (tests skipped), then runs io.sf2loki.daemon.soak.SoakMain from the daemon's test classes: a
# file_lease pair of daemon processes against the fake Salesforce and the fake Loki, MINUTES of
# seeded random faults in all, half with the file store and half with S3 (s3proxy). The seed is
# printed; passing it again replays the same fault schedule. Exits 0 when every proof held.
# Report: sf2loki-daemon/target/soak/report.md; daemon logs under sf2loki-daemon/target/soak/.
set -euo pipefail

cd "$(dirname "$0")/.."
MINUTES="${1:-3}"
SEED="${2:-}"
args="--minutes $MINUTES"
if [ -n "$SEED" ]; then
  args="$args --seed $SEED"
fi
exec mvn -B -q --no-transfer-progress -pl sf2loki-daemon -am -DskipTests -Psoak \
  "-Dsoak.args=$args" package
