#!/usr/bin/env bash
# Builds each libFuzzer target with AddressSanitizer and runs it for a bounded
# time: FUZZ_SECONDS each (default 30). The committed corpora in
# fuzz/corpus/<target>/ seed the run and are not modified; new inputs go to
# .build/fuzz/corpus/<target>/, crashes to .build/fuzz/<target>-crash-*.
# Exits non-zero when a target finds a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
out=.build/fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -Onone -g)
# ld.gold warns about every sanitizer helper it cannot export; the warnings are noise.
link() { swiftc "${flags[@]}" "$@" 2> >(grep -v "Cannot export local symbol" >&2); }

# SwipeCore (the parser's Decision and PhysicsKind, and the deck it drives) as its own module.
link -module-name SwipeCore -emit-module -emit-module-path "$out/SwipeCore.swiftmodule" \
  -emit-library -static -o "$out/libSwipeCore.a" Sources/SwipeCore/*.swift
# SwipeStore (JSONText, String trimming, ModerationCommand) as its own module, for the CSV reader and the parser.
link -module-name SwipeStore -package-name swipe -I "$out" -L "$out" -lSwipeCore -emit-module \
  -emit-module-path "$out/SwipeStore.swiftmodule" -emit-library -static -o "$out/libSwipeStore.a" Sources/SwipeStore/*.swift
# The REPL's parser (its `moderate` commands are SwipeStore's ModerationCommand).
link -package-name swipe -I "$out" -L "$out" -lSwipeStore -lSwipeCore -o "$out/repl-input" \
  Sources/SwipeSession/Command/Command.swift Sources/SwipeSession/Command/Command+Parsing.swift \
  Sources/SwipeSession/Command/Command+Words.swift Sources/SwipeSession/Command/CommandError.swift \
  Sources/SwipeSession/Command/ReplView.swift Sources/SwipeSession/Command/Command+Discovery.swift Sources/SwipeSession/Text/Spelling.swift \
  Sources/SwipeSession/Command/Command+Conversations.swift Sources/SwipeSession/Command/Command+Listed.swift \
  Sources/SwipeSession/Command/Command+Me.swift Sources/SwipeSession/Command/Command+Insights.swift \
  fuzz/ReplInputFuzz.swift
link -package-name swipe -I "$out" -L "$out" -lSwipeStore -lSwipeCore -o "$out/csv-reader" \
  Sources/SwipeCSV/CSVReader.swift Sources/SwipeCSV/CSVError.swift Sources/SwipeCSV/ByteScan.swift fuzz/CSVReaderFuzz.swift
# PhotoBytes (SwipeStore): the JPEG, PNG and WebP walkers that strip metadata.
link -package-name swipe -I "$out" -L "$out" -lSwipeStore -lSwipeCore -o "$out/photo-bytes" fuzz/PhotoBytesFuzz.swift

status=0
for target in csv-reader repl-input photo-bytes; do
  mkdir -p "$out/corpus/$target"
  echo "fuzz: $target for ${seconds}s"
  if ! "$out/$target" "$out/corpus/$target" "fuzz/corpus/$target" -max_total_time="$seconds" \
      -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$out/$target-" \
      2> "$out/$target.log"; then
    status=1
    tail -40 "$out/$target.log" >&2
  fi
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^Done" "$out/$target.log" || true
done
exit $status
