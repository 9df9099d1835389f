# Engine stalls of a Neuron device JSON profile, for tests/analyze.sh: per
# engine (label), gaps over $min ns between its instructions (merged)
# in which another engine starts one; "ENGINE GAPS NS" per line.
[.instruction[] | .timestamp |= tonumber | .duration |= (if type == "string" then tonumber else (. // 0) end)] as $all | [$all[] | .label] | unique[] as $l |
[$all[] | select(.label == $l)] | sort_by(.timestamp) |
reduce .[] as $i ({end: null, gaps: []};
	(if .end != null and ($i.timestamp - .end) > $min
	 then .gaps += [[.end, $i.timestamp]] else . end) |
	.end = ([.end // 0, $i.timestamp + $i.duration] | max)) |
.gaps | map(select(. as $g | any($all[]; .label != $l and
	.timestamp > $g[0] and .timestamp < $g[1]))) |
select(length > 0) | "\($l) \(length) \(map(.[1] - .[0]) | add)"
