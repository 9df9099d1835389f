#!/bin/sh
# Fuzz regressions: every input saved in tests/fuzz/regress/NAME/ (each once
# a finding of `make fuzz`) goes again through harness NAME, built here
# without libFuzzer (tests/fuzz/replay.c); so do the fixtures the corpora are
# seeded with. A crash fails the test.
set -u
. "${srcdir:-.}/tests/lib.sh"

fx="$srcdir/tests/fixtures"
# the cache harness: each fixture's cache as it is and edited a little
cin=$(mktemp -d)
trap 'rm -rf "$cin"' EXIT
for m in 0 1 2 3; do
	printf "\\00$m\\002\\001\\003\\005\\000\\004\\001\\003\\377" > "$cin/edit$m"
done
for n in jsonsplit neuron system pftrace chrome query querybuild command parquet cache \
	pqdevice pqsystem; do
	bin="$builddir/tests/fuzz/replay_$n"
	[ -x "$bin" ] || { echo "no $bin: skipping"; exit 77; }
	set --
	[ -d "$srcdir/tests/fuzz/regress/$n" ] && set -- "$srcdir/tests/fuzz/regress/$n"
	case $n in
	jsonsplit | neuron) set -- "$@" "$fx/device_small.json" ;;
	system) set -- "$@" "$fx/system_small.json" ;;
	chrome) set -- "$@" "$fx/chrome_phases.json" "$fx/chrome_array.json.gz" ;;
	parquet) set -- "$@" "$fx"/parquet/*.parquet ;;
	pqdevice) set -- "$@" "$fx"/parquet-device/*/Instruction*.parquet ;;
	pqsystem) set -- "$@" "$fx"/parquet-system/*/SystemProfileEvents.parquet ;;
	cache) set -- "$@" "$cin" ;;
	esac
	[ $# -gt 0 ] || continue
	expect 0 "input\(s\) replayed" env TMPDIR="${TMPDIR:-/tmp}" "$bin" "$@"
done
pass
