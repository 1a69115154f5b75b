#!/usr/bin/env bash
# Loads seed/ (profiles, past decisions, blocks) into a database with the
# swipe binary given: a SQLite path or a postgres:// URI (README "Setup").
#
#   scripts/load-seed.sh SWIPE_BINARY DATABASE
set -euo pipefail
cd "$(dirname "$0")/.."
swipe=$1
db=$2
"$swipe" import --db "$db" seed/profiles.csv
"$swipe" import --db "$db" --decisions seed/decisions.csv
tail -n +2 seed/blocks.csv | while IFS=, read -r blocker blocked; do
  "$swipe" block --db "$db" --as "$blocker" "$blocked" >/dev/null
done
