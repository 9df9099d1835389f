#!/bin/sh
# make fuzz: builds every harness of tests/fuzz/ with clang, libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer in $builddir/fuzz-build
# (apart from the normal build), seeds each corpus from the test
# fixtures, runs each harness for FUZZ_SECONDS and prints its executions.
# A crash, a leak, undefined behaviour, a hang (FUZZ_TIMEOUT seconds on
# one input) or too much memory (FUZZ_RSS_MB) is a finding: the input is
# saved as fuzz-build/crash-NAME-*, and the run exits 1. Keep it as a
# regression test: copy it to tests/fuzz/regress/NAME/ (make check replays it).
#
# Set by the Makefile: srcdir, builddir, FUZZ_NAMES, FUZZ_SOURCES,
# FUZZ_DEPS_CFLAGS, FUZZ_LIBS. Optional: FUZZ_SECONDS (60), FUZZ_CC
# (clang), FUZZ_TIMEOUT (30), FUZZ_RSS_MB (2048).
set -eu
: "${FUZZ_SECONDS:=60}" "${FUZZ_CC:=clang}" "${FUZZ_TIMEOUT:=30}"
: "${FUZZ_RSS_MB:=2048}"
out="$builddir/fuzz-build"
mkdir -p "$out"

if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
	echo "make fuzz: $FUZZ_CC not found (libFuzzer needs clang; on Debian:" \
		"apt-get install clang libclang-rt-dev, or run ./install-deps)" >&2
	exit 1
fi

# A makefile for the instrumented objects, so that a second run only
# rebuilds what changed.
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
{
	echo "CC = $FUZZ_CC"
	echo "CFLAGS = -g -O1 -fno-omit-frame-pointer $san -fsanitize=fuzzer-no-link"
	echo "CPPFLAGS = -I$srcdir -I$builddir -DFUZZ_FIXTURES='\"$srcdir/tests/fixtures\"' $FUZZ_DEPS_CFLAGS"
	echo "LIBS = $FUZZ_LIBS"
	objs=""
	for s in $FUZZ_SOURCES tests/fuzz/fuzz.c "$builddir/proto/nxpf_trace.pb-c.c"; do
		case $s in
		*.c) ;;
		*) continue ;;
		esac
		case $s in
		/*) src=$s o=obj/proto/$(basename "$s" .c).o ;;
		*) src=$srcdir/$s o=obj/${s%.c}.o ;;
		esac
		objs="$objs $o"
		printf '%s: %s\n\t@mkdir -p %s\n\t$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ %s\n' \
			"$o" "$src" "$(dirname "$o")" "$src"
	done
	echo "OBJS =$objs"
	for n in $FUZZ_NAMES; do
		printf 'fuzz_%s: %s $(OBJS)\n\t$(CC) %s -fsanitize=fuzzer -o $@ %s $(OBJS) $(LIBS)\n' \
			"$n" "obj/fuzz/$n.o" "$san" "obj/fuzz/$n.o"
		printf 'obj/fuzz/%s.o: %s\n\t@mkdir -p obj/fuzz\n\t$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ %s\n' \
			"$n" "$srcdir/tests/fuzz/$n.c" "$srcdir/tests/fuzz/$n.c"
	done
	printf 'mkpftrace: %s %s\n\t$(CC) $(CPPFLAGS) -O1 -o $@ %s %s $(LIBS)\n' \
		"$srcdir/tests/mkpftrace.c" "$builddir/proto/nxpf_trace.pb-c.c" \
		"$srcdir/tests/mkpftrace.c" "$builddir/proto/nxpf_trace.pb-c.c"
} > "$out/Makefile.new"
# objects depend on headers too: a changed makefile or header rebuilds all
if ! cmp -s "$out/Makefile.new" "$out/Makefile" ||
	[ -n "$(find "$srcdir/src" "$srcdir/model" "$srcdir/tui" "$srcdir/tests/fuzz" \
		-name '*.h' -newer "$out/Makefile" 2>/dev/null)" ]; then
	rm -rf "$out/obj"
	mv "$out/Makefile.new" "$out/Makefile"
else
	rm -f "$out/Makefile.new"
fi
echo "== building the fuzz harnesses in $out"
targets="mkpftrace"
for n in $FUZZ_NAMES; do targets="$targets fuzz_$n"; done
# shellcheck disable=SC2086
make -s -C "$out" -j2 $targets

# Seeds: the test fixtures (the Parquet ones too), the Perfetto traces of
# tests/mkpftrace, the queries and commands typed by the screen tests,
# and the saved built queries.
seeds="$out/seeds"
rm -rf "$seeds"
for n in jsonsplit neuron system pftrace chrome query querybuild command parquet cache \
	pqdevice pqsystem; do
	mkdir -p "$seeds/$n"
done
fx="$srcdir/tests/fixtures"
for f in device_small system_small chrome_epoch chrome_phases trace_same; do
	cp "$fx/$f.json" "$seeds/neuron/" 2>/dev/null || true
	# the splitter's first byte is the read size
	{ printf '\007'; cat "$fx/$f.json"; } > "$seeds/jsonsplit/$f"
done
rm -f "$seeds/neuron/chrome_"* "$seeds/neuron/trace_same.json"
cp "$fx/system_small.json" "$seeds/system/"
cp "$fx/chrome_array.json.gz" "$fx/chrome_epoch.json" "$fx/chrome_phases.json" \
	"$fx/trace_same.json" "$seeds/chrome/"
"$out/mkpftrace" "$seeds/pftrace" >/dev/null
cp "$fx"/parquet/*.parquet "$seeds/parquet/"
for d in "$fx"/parquet-device/*/; do
	for f in "$d"Instruction*.parquet; do
		cp "$f" "$seeds/pqdevice/$(basename "$d")-$(basename "$f")"
	done
done
for d in "$fx"/parquet-system/*/; do
	cp "$d"SystemProfileEvents.parquet "$seeds/pqsystem/$(basename "$d").parquet"
done
# caches: each fixture's with no edit, and with a few of each kind
for m in 1 2 3; do
	printf "\\00$m" > "$seeds/cache/plain$m"
	for e in 0 1 2 3 4; do
		printf "\\00$m\\00$e\\003\\00$((e % 4))\\001\\002\\377" > "$seeds/cache/edit$m$e"
	done
done
i=0
for k in "$srcdir"/tests/screens/*.keys; do
	sed -n 's/^keys //p' "$k" | tr '<' '\n' | sed -n 's/^Enter>[:/]//p;s/^[:/]//p'
done | sort -u | while IFS= read -r line; do
	[ -n "$line" ] || continue
	i=$((i + 1))
	printf '%s' "$line" > "$seeds/command/$i"
	printf '!%s' "$line" > "$seeds/command/h$i"
	printf '%s' "$line" > "$seeds/query/$i"
	printf '%s' "$line" > "$seeds/querybuild/$i"
done
# built queries: the saved ones (a value ending in a backslash, quotes,
# controls, a row named like a costly regex)
cp "$srcdir"/tests/fuzz/regress/querybuild/* "$seeds/querybuild/"

# scratch files (each input, each cache) in memory when there is a tmpfs
tmpdir=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && tmpdir=/dev/shm
status=0
echo "== fuzzing each harness for $FUZZ_SECONDS s"
for n in $FUZZ_NAMES; do
	corpus="$out/corpus/$n"
	mkdir -p "$corpus"
	case $n in
	query | querybuild | command) dict="-dict=$srcdir/tests/fuzz/query.dict" ;;
	pftrace | parquet | pqdevice | pqsystem | cache) dict="" ;;
	*) dict="-dict=$srcdir/tests/fuzz/json.dict" ;;
	esac
	# shellcheck disable=SC2086
	if (cd "$out" && TMPDIR="$tmpdir" ./fuzz_$n \
		-max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" \
		-rss_limit_mb="$FUZZ_RSS_MB" -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$out/crash-$n-" \
		$dict "$corpus" "$seeds/$n") > "$out/$n.log" 2>&1; then
		result="no finding"
	else
		result="FINDING (see $out/$n.log)"
		status=1
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$n.log")
	printf '%-10s %10s executions in %s s, %s\n' "$n" "${runs:-?}" \
		"$FUZZ_SECONDS" "$result"
done
exit $status
