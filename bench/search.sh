#!/bin/sh
# Search benchmark: on the demo cache (bench/lib.sh), headless at 200x50,
# the frame after Enter (the first frame with the matches) and the frames
# of n and N, for a search on names (the opcode baseline) and searches
# comparing dur and size, alone, two at once, beside name/engine/queue_type
# terms and beside name patterns, HLO names, and free words, in the same
# run; then R, the list of matches, whose heading holds their statistics
# (exact up to 100000 matches, by bin from the duration aggregates
# above). Budgets (issue 16): first frame < 300 ms, n/N < 50 ms,
# R < 300 ms.
set -eu
. "$(dirname "$0")/lib.sh"
export XDG_DATA_HOME="$out/data"

verdict() { awk -v v="$1" -v b="$2" 'BEGIN { print (v < b ? "ok" : "OVER BUDGET") }'; }

# one query: median Enter frame over 3 runs, median and worst of n and N
one() {
	printf 'size 200x50\nkeys /%s<Enter>nnnnnNNNNN\ntimes search.times\n' "$1" \
		> "$out/search.keys"
	: > "$out/search.first"
	: > "$out/search.step"
	for i in 1 2 3; do
		"$NXTOP" -q --headless="$out/search.keys" --dump="$out" "$cache"
		awk '$1 == "<Enter>" { print $2 }' "$out/search.times" >> "$out/search.first"
		# n and N after Enter (not those typed in the query)
		awk '$1 == "<Enter>" { on = 1 } on && ($1 == "n" || $1 == "N") { print $2 }' \
			"$out/search.times" >> "$out/search.step"
	done
	first=$(median < "$out/search.first")
	step=$(median < "$out/search.step")
	worst=$(sort -n "$out/search.step" | tail -n 1)
	printf '  %-34s first %8.1f ms %-11s n/N median %7.1f ms worst %7.1f ms %s\n' \
		"/$(echo "$1" | sed "s/<lt>/</g")" "$first" "$(verdict "$first" 300)" "$step" "$worst" \
		"$(verdict "$worst" 50)"
}

echo "nxtop search: $cache ($n events), 200x50, headless"
one 'opcode=MATMUL'
one 'dur>2us'
one 'dur<lt>100ns'
one 'size>=65536'
one 'opcode=MATMUL dur>2us'
one 'engine=Vector dur>1us'
one 'queue_type=data size>4096'
one 'queue_type=data'
one 'dur>1us dur<lt>10us'
one 'dur>1us size>4096'
one 'name~gather dur>1us'
one 'engine=Vector'
one 'opcode=MATMUL dur>100ns dur<lt>300ns'
one 'name~kernel size>4096'
# names beside numbers on the sparse DMA rows, whose names are kept
# coarser than their durations and sizes: one exact name, an opcode, a
# row and a pattern, a pattern naming some of a row's many names
one 'name=dot.66_SpillSave21 size>=65536'
one 'opcode=MATMUL size>4096'
one 'row=qVectorSpillReload0 name~SpillSave dur<lt>500ns'
one 'name~SpillSave2 size<lt>65536'
# free words: one only names hold, one only rows, one only HLO names,
# one names and a layer hold (each row from its name or category
# aggregates where they tell, else every event's columns tested)
one 'EVENT_SEMAPHORE'
one 'SpillSave'
one 'Vector'
one 'rsqrt'
one 'MATMUL'
# negated: the other names, the other rows (the name aggregates)
one 'name!=MATMUL'
one '-engine=Vector dur>1us'
one '-row~Spill'
one '-hlo~rsqrt'
one '-opcode=MATMUL'
# HLO names, alone and beside a row (the HLO aggregates)
one 'hlo~rsqrt'
one 'hlo=/dot\.1[0-9]/'
one 'hlo~multiply row=Scalar'
# layers, alone and beside a row (the category aggregates), and a free
# word names and layers hold (the rows whose aggregates hold it)
one 'layer~attention'
one 'layer=/MatMul$/ row=Vector'
one 'attention'
# a term on instruction columns alone: every instruction read once for
# all rows (no aggregates: the budget is not this search's)
one 'pc>100'

# R: the list of matches and its heading's statistics, median of 3 runs,
# with the match count and whether the percentiles are estimated (~)
list() {
	printf 'size 200x50\nkeys /%s<Enter>\nkeys R\ntimes search.times\ndump search.r\n' "$1" \
		> "$out/search.keys"
	: > "$out/search.list"
	for i in 1 2 3; do
		"$NXTOP" -q --headless="$out/search.keys" --dump="$out" "$cache"
		awk '$1 == "R" { print $2 }' "$out/search.times" >> "$out/search.list"
	done
	ms=$(median < "$out/search.list")
	head -n 1 "$out/search.r" | awk -v q="/$(echo "$1" | sed "s/<lt>/</g")" -v ms="$ms" \
		-v ok="$(verdict "$ms" 300)" '{
		for (i = 1; i < NF; i++) if ($(i + 1) == "matches") n = $i
		est = index($0, "p50 ~") ? "estimated" : "exact"
		printf "  R %-32s %8.1f ms %-11s %9s matches, percentiles %s\n", q, ms, ok, n, est }'
}

echo "R, the list of matches with their statistics:"
list 'opcode=MATMUL'
list 'engine=Vector'
list 'queue_type=data'
list 'dur<lt>100ns'
list 'dur>=300ns'
list 'opcode=MATMUL dur>200ns'
list 'dur>1us'
list 'size>4096'
list 'name~kernel size>4096'
list 'hlo~rsqrt'
list 'hlo=/dot\.1[0-9]/'
list '-hlo~rsqrt'
