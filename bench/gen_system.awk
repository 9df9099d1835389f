# Writes a Neuron system profile of n trace events over rows (threads
# of one process, one NeuronCore each), nested depth deep: each stack
# is depth calls, each inside the one before (depth 1: flat). order=end
# writes each stack's calls as a runtime records them, innermost first
# (children before their parents); order=start writes them outermost
# first. Every row's stacks follow each other in time.
#   awk -v n=2000000 -v depth=16 -v rows=4 -v order=end -f gen_system.awk
BEGIN {
	if (!n) n = 2000000
	if (!depth) depth = 1
	if (!rows) rows = 4
	if (order == "") order = "start"
	sec = 1729888371		# the first second, Unix time
	span = 2 * depth + 10		# ns per stack
	printf "{\n \"system_profile_metadata\": [{\"first_ts_ns\": \"%d000000000\"}],\n", sec
	printf " \"trace_event\": [\n"
	stacks = int((n + depth - 1) / depth)
	sep = ""
	for (s = 0; s < stacks; s++) {
		row = s % rows
		t0 = int(s / rows) * span
		for (j = 0; j < depth && s * depth + j < n; j++) {
			d = order == "end" ? depth - 1 - j : j
			if (s * depth + depth > n)	# a short last stack
				d = j
			t = t0 + d
			printf "%s  {\"name\": \"call_%d\", \"timestamp\": %d%09d, \"duration\": %d, \"instance_id\": \"i-0bench\", \"process_id\": \"4242\", \"thread_id\": %d, \"lnc_idx\": %d, \"nc_idx\": %d, \"worker_gid\": %d, \"trace_event_source\": \"neuron_rt\"}",
				sep, d % 8, sec + int(t / 1000000000), t % 1000000000,
				span - 2 * d - 1, 1000 + row, row, row, 32 + row
			sep = ",\n"
		}
	}
	printf "\n ]\n}\n"
}
