#!/bin/sh
# make bench: every benchmark, each printing its figures and its ratios
# against a baseline measured in the same run.
set -eu
here=$(dirname "$0")
for b in import tui lanes trace chrome system nesting analysis analyze diff parquet pqdevice search stacked; do
	echo "### bench/$b.sh"
	sh "$here/$b.sh"
done
