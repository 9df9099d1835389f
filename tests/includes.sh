#!/bin/sh
# Include graph of src/, model/ and tui/: calls go one way. A module is a
# file's .c and .h together (an internal header X_int.h belongs to X);
# module A including a header of module B is the edge A -> B. Fails on a
# circle (in the importers: the dispatcher calls the formats, the formats
# call the base, nothing calls back up) and when a file of tui/ reaches
# <sqlite3.h> through its includes (views ask the model, not SQLite).
set -u
cd "${srcdir:-.}" || exit 1

# Edges that point back up, each known and why; any other circle fails.
#  model/util -> model/text: error messages are cleaned of control bytes
#  tui/list -> tui/pager: a list shows a line in a pager, itself a list
#  model/cache/validate -> model/writer/writer: validation checks the writer's
#    time range
#  tui/compare_view, tui/insight_view, tui/layer_view, tui/marker_view ->
#    tui/timeline/timeline: these lists move the timeline they were opened
#    from
back_edges='model/util model/text
tui/list tui/pager
model/cache/validate model/writer/writer
tui/insight_view tui/timeline/timeline
tui/layer_view tui/timeline/timeline
tui/marker_view tui/timeline/timeline
tui/compare_view tui/timeline/timeline'

files=$(find src model tui -name '*.[ch]' | LC_ALL=C sort)
[ -n "$files" ] || { echo "includes.sh: no sources under $(pwd)" >&2; exit 1; }

# "file included" for every project include, "file <sqlite3.h>" for SQLite
includes=$(for f in $files; do
	sed -n -e 's|^#include "\(.*\)".*|'"$f"' \1|p' \
		-e 's|^#include <sqlite3.h>.*|'"$f"' <sqlite3.h>|p' "$f"
done)

# one line "from to" per edge between two modules
edges=$(printf '%s\n' "$includes" | grep -v -e ' <sqlite3.h>$' -e ' config.h$' |
	sed -e 's/\.[ch]\( \|$\)/\1/g' -e 's/_int\( \|$\)/\1/g' |
	awk '$1 != $2' | LC_ALL=C sort -u)
[ -n "$edges" ] || { echo "includes.sh: no includes found" >&2; exit 1; }

fail=0
loops=$(printf '%s\n' "$edges" | grep -vxF "$back_edges" | tsort 2>&1 >/dev/null)
if [ -n "$loops" ]; then
	echo "include circle among these modules:"
	printf '%s\n' "$loops" | sed -e 's/^tsort: //' -e 's/^-: input contains a loop:$/--/'
	fail=1
fi

# files that reach <sqlite3.h>: those that include it, then their includers
reach=$(printf '%s\n' "$includes" | awk '
	{ from[NR] = $1; to[NR] = $2 }
	$2 == "<sqlite3.h>" { r[$1] = 1 }
	END {
		do {
			more = 0
			for (i = 1; i <= NR; i++)
				if ((to[i] in r) && !(from[i] in r)) {
					r[from[i]] = 1
					more = 1
				}
		} while (more)
		for (f in r)
			print f
	}' | LC_ALL=C sort)
bad=$(printf '%s\n' "$reach" | grep '^tui/')
if [ -n "$bad" ]; then
	echo "files of tui/ that compile against <sqlite3.h>:"
	printf '%s\n' "$bad"
	fail=1
fi
exit $fail
