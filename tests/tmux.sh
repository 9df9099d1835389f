#!/bin/sh
# End to end in a real terminal: nxtop runs in tmux, some of the screen
# scripts of tests/screens are typed into it with send-keys (drill: from
# the demo bundle's system view into a device profile and back with
# Backspace and q; pager: the details pane's fields and the info
# panels' lines read in full; cmdline: editing a command opened by a
# key; home-end: Home and End as tmux sends them, \e[1~ and \e[4~, to
# a TERM=xterm-256color that lacks them; devices-ncs: the device list
# and a drilldown where the bundle says which NeuronCore each device
# profile is; box-small: a Selection Summary
# with its "(none)" lines; trace: a Chrome trace's legend in its own
# words; manager: the Profile Manager opening a profile and back;
# nesting: lanes folded and unfolded, moves to parent, child and
# siblings; flows: following a flow, choosing among several, coming
# back with Backspace; flowmarks: the marks where flows leave and
# enter events, hidden and shown again with :flows; insights: the
# warnings lane, the Insights list and a finding zoomed to and boxed;
# views: a view saved, restored, listed and deleted; a bundle whose
# device profiles import in the background, one drilled into opening
# when ready; stacked: nxtop A B,
# the two timelines stacked, aligned on an event of each, the Compare
# view's Enter zooming both and the two-sided Selection Summary;
# stacked-system: two bundles stacked, drilling into B's device
# profile, a view of B's folds; flows-stacked: flows followed on B's
# rows; stacked-search: a search counted and marked on both sides;
# stacked-tab: Tab between A's and B's headings of the matches; mouse,
# mouse-lists: clicks, double-clicks, drags and wheel steps sent as the
# SGR mouse reports of xterm, which curses decodes for
# TERM=xterm-256color); a search resized while it reads; TERM=dumb
# refused in one line; and
# every dump point must show, in capture-pane, exactly the
# screen the headless run shows. Then q must quit and give the terminal
# back. Skipped (77) without tmux or a C.UTF-8 locale.
set -u
. "${srcdir:-.}/tests/lib.sh"

command -v tmux >/dev/null 2>&1 ||
	{ echo "SKIP: needs tmux (./install-deps installs it)" >&2; exit 77; }
if ! locale -a 2>/dev/null | grep -Eiq '^c\.utf-?8$'; then
	echo "no C.UTF-8 locale: skipping"
	exit 77
fi

tmp=$(mktemp -d)
# markers, history and exports stay in the test's folder (each script
# has markers and history of its own, as in screen.sh)
export XDG_DATA_HOME="$tmp/data" NXTOP_EXPORT_DIR="$tmp"
sock="nxtop-test-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
screens="$srcdir/tests/screens"
cp "$srcdir/tests/fixtures/device_screen.json" "$tmp/p.json"
"$NXTOP" import -q "$tmp/p.json" || fail "import failed"
# scripts on "# profile: bundle" run on the demo bundle, as in screen.sh
"$NXTOP" demo --events 2000 --system-events 2000 --seed 1 --write "$tmp/bundle" &&
	"$NXTOP" import -q "$tmp/bundle" 2>/dev/null || fail "demo bundle failed"
# a session that keeps the server up while test sessions come and go
tm new-session -d -s keep "sleep 600" || fail "tmux cannot start"

# await TRIES CMD...: runs CMD every 50 ms until it succeeds; false
# after TRIES tries.
await() {
	n=$1
	shift
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -lt "$n" ] || return 1
		sleep 0.05
	done
}
# pane_has RE / top_has RE: the pane, or its first line, matches RE
pane_has() { tm capture-pane -p -t t | grep -q "$1"; }
top_has() { tm capture-pane -p -t t | head -n 1 | grep -q "$1"; }
sized() { [ "$(tm display-message -p -t t '#{pane_width}x#{pane_height}')" = "$1" ]; }
shows() { tm capture-pane -p -t t > "$tmp/cap" && cmp -s "$1" "$tmp/cap"; }

# Polls the pane until it shows file $1 (up to 10 s; a frame takes ms).
wait_screen() {
	await 200 shows "$1" && return 0
	fail "$2: tmux shows something else:
$(diff -u "$1" "$tmp/cap")"
	return 1
}

# Types KEYS written as in the request table: <Name> keys and literal
# text.
type_keys() {
	printf '%s\n' "$1" | sed 's/<\([A-Za-z-]*\)>/\n<\1>\n/g' |
	while IFS= read -r tok; do
		case "$tok" in
		"") ;;
		"<Enter>") tm send-keys -t t Enter ;;
		"<Esc>") tm send-keys -t t Escape ;;
		"<Tab>") tm send-keys -t t Tab ;;
		"<Space>") tm send-keys -t t Space ;;
		"<Backspace>") tm send-keys -t t BSpace ;;
		"<PgDown>") tm send-keys -t t NPage ;;
		"<PgUp>") tm send-keys -t t PPage ;;
		# what tmux sends for Home and End, byte for byte
		"<Home>") tm send-keys -t t -H 1b 5b 31 7e ;;
		"<End>") tm send-keys -t t -H 1b 5b 34 7e ;;
		"<lt>") tm send-keys -t t -l '<' ;;
		"<C-"?">") tm send-keys -t t "C-$(printf '%s' "$tok" | cut -c4)" ;;
		"<"*">") tm send-keys -t t "$(printf '%s' "$tok" | tr -d '<>')" ;;
		*) tm send-keys -t t -l "$tok" ;;
		esac
	done
}

# Sends a script's mouse line as the SGR reports (xterm 1006) a terminal
# sends: ESC [ < button ; column ; row, M for a press or a wheel step,
# m for a release, in cells from 1 1; button 0 is the first, 64 and 65
# the wheel up and down, 16 more with Ctrl.
send_mouse() {
	set -- $1
	what=$1
	shift
	case $what in
	click) seq=$(sgr 0 "$1" "$2" M)$(sgr 0 "$1" "$2" m) ;;
	double) seq=$(sgr 0 "$1" "$2" M)$(sgr 0 "$1" "$2" m)
		seq=$seq$seq ;;
	press) seq=$(sgr 0 "$1" "$2" M) ;;
	release) seq=$(sgr 0 "$1" "$2" m) ;;
	drag) seq=$(sgr 0 "$1" "$2" M)$(sgr 0 "$3" "$4" m) ;;
	wheel)
		b=64
		[ "$1" = down ] && b=65
		[ "${4:-}" = zoom ] && b=$((b + 16))
		seq=$(sgr "$b" "$2" "$3" M) ;;
	esac
	tm send-keys -t t -l "$seq"
}
sgr() { printf '\033[<%d;%d;%d%s' "$1" $(($2 + 1)) $(($3 + 1)) "$4"; }

run() {
	name=$1 script="$screens/$1.keys" size=80x24
	profile=$(sed -n 's/^# profile: //p' "$script")
	envs=$(sed -n 's/^# env: //p' "$script")
	case $profile in
	bundle) profile=$tmp/bundle ;;
	datapath)
		# as in screen.sh: no profile, the manager on a data path
		[ -e "$tmp/datapath" ] || profiles_datapath "$tmp/datapath"
		profile=--data-path=$tmp/datapath ;;
	device_screen.json) profile=$tmp/p.json ;;
	bundle-ncs)
		if [ ! -e "$tmp/$profile" ]; then
			bundle_ncs "$tmp/$profile" &&
			"$NXTOP" import -q "$tmp/$profile" 2>/dev/null ||
				{ fail "$name: $profile: import failed"; return; }
		fi
		profile=$tmp/$profile ;;
	bundle-small | bundle-broken)
		# as in screen.sh
		if [ ! -e "$tmp/$profile" ]; then
			mkdir "$tmp/$profile" &&
			cp "$srcdir/tests/fixtures/system_small.json" \
				"$tmp/$profile/system_profile.json" &&
			bundle_device "$profile" \
				> "$tmp/$profile/device_profile_model_1578576049.json" &&
			"$NXTOP" import -q "$tmp/$profile" 2>/dev/null ||
				{ fail "$name: $profile: import failed"; return; }
		fi
		profile=$tmp/$profile ;;
	*)
		# another fixture, imported once
		if [ ! -e "$tmp/$profile" ]; then
			mkdir -p "$(dirname "$tmp/$profile")" &&
			cp -R "$srcdir/tests/fixtures/$profile" "$tmp/$profile" &&
				"$NXTOP" import -q "$tmp/$profile" ||
				{ fail "$name: $profile: import failed"; return; }
		fi
		profile=$tmp/$profile ;;
	esac
	# a second profile for nxtop A B, as in screen.sh
	compare=$(sed -n 's/^# compare: //p' "$script")
	if [ -n "$compare" ] && [ ! -e "$tmp/$compare" ]; then
		if [ "$compare" = bundle-small-b ]; then
			bundle_small_b "$tmp/$compare"
		else
			cp "$srcdir/tests/fixtures/$compare" "$tmp/$compare"
		fi &&
			"$NXTOP" import -q "$tmp/$compare" 2>/dev/null ||
			{ fail "$name: $compare: import failed"; return; }
	fi
	first=$(grep -v '^#' "$script" | head -n 1)
	case "$first" in size\ *) size=${first#size } ;; esac
	tm kill-session -t t 2>/dev/null
	tm new-session -d -s t -x "${size%x*}" -y "${size#*x}" \
		"env LC_ALL=C.UTF-8 TERM=xterm-256color XDG_DATA_HOME='$tmp/data-$name' $envs '$NXTOP' -q '$profile' ${compare:+'$tmp/$compare'}; echo nxtop-exited; sleep 30"
	# keys typed before curses is up would arrive in the wrong mode
	await 200 pane_has "^nxtop " || { fail "$name: nxtop did not start"; return; }
	# and the insights counted (the headless run waits for them too),
	# unless the first view is the Profile Manager or the Compare view
	case $profile${compare:+-compare} in --data-path=* | *-compare) ;; *)
		await 200 top_has " insights\{0,1\} " ||
			{ fail "$name: no insights counted"; return; } ;;
	esac
	while IFS= read -r line; do
		case "$line" in
		"#"* | "") ;;
		size\ *)
			s=${line#size }
			tm resize-window -t t -x "${s%x*}" -y "${s#*x}"
			# the keys and mouse reports after it are meant for
			# the new size: give nxtop the resize first. tmux may
			# fit the pane's grid to the size after nxtop has
			# repainted for it (the repaint then lands cropped on
			# the old grid): C-l, the redraw key, repaints again
			# once the pane has the size.
			await 200 sized "$s"
			sleep 0.3
			tm send-keys -t t C-l
			sleep 0.1 ;;
		keys\ *) type_keys "${line#keys }" ;;
		mouse\ *) send_mouse "${line#mouse }" ;;
		dump\ *)
			dump=${line#dump }
			[ -f "$screens/$name/$dump" ] || continue
			wait_screen "$screens/$name/$dump" "$name/$dump" || return ;;
		esac
	done < "$script"
}

for t in start details help tracks zoom search box box-small trace drill \
	pager cmdline markers-line counters drill-failed home-end devices-ncs \
	manager nesting flows flowmarks insights views stacked stacked-system \
	flows-stacked mouse mouse-lists stacked-search stacked-tab; do
	run "$t"
done

# A bundle not imported yet: its device profiles import in the
# background while the system view shows (no headless script holds them
# back here); the one drilled into from D opens by itself once ready.
"$NXTOP" demo --events 2000 --system-events 2000 --seed 1 \
	--write "$tmp/bundle-queued" >/dev/null 2>&1 || fail "demo bundle failed"
tm kill-session -t t 2>/dev/null
tm new-session -d -s t -x 80 -y 24 \
	"env LC_ALL=C.UTF-8 TERM=xterm-256color '$NXTOP' -q '$tmp/bundle-queued'; echo nxtop-exited; sleep 30"
await 600 pane_has "^nxtop " || fail "background: nxtop did not start"
type_keys 'D<Down><Enter>'
await 600 top_has "› llama-3-8b nc2" ||
	fail "background: the device profile did not open:
$(tm capture-pane -p -t t)"
tm capture-pane -p -t t | grep -q "Engines" ||
	fail "background: no device timeline: $(tm capture-pane -p -t t)"
tm send-keys -t t Q

# y after :set osc52 on puts the line it shows into the clipboard: the
# tmux buffer (OSC 52 decoded)
tm set-option -s set-clipboard on
tm delete-buffer 2>/dev/null
run start
type_keys ':set osc52 on<Enter>y'
clip_has() { tm show-buffer 2>/dev/null | grep -q "$1"; }
await 100 clip_has "^nxtop '\{0,1\}$tmp/p.json" ||
	fail "osc52: no clipboard: $(tm show-buffer 2>&1)"
tm capture-pane -p -t t | tail -n 1 | grep -qF "$(tm show-buffer 2>/dev/null)" ||
	fail "osc52: the clipboard is not the status line's: $(tm show-buffer 2>&1)"
tm set-option -s set-clipboard off

# a terminal that cannot move its cursor (TERM=dumb, as in an editor's
# shell buffer): one line saying so and exit status 1, not a screen
# drawn on its last line
tm kill-session -t t 2>/dev/null
tm new-session -d -s t -x 120 -y 24 \
	"env LC_ALL=C.UTF-8 TERM=dumb '$NXTOP' -q '$tmp/p.json'; echo nxtop-exited \$?; sleep 30"
await 200 pane_has "nxtop-exited" || fail "TERM=dumb: nxtop did not exit: $(tm capture-pane -p -t t)"
tm capture-pane -p -t t | grep -q "^nxtop: terminal type 'dumb' cannot move the cursor: the viewer needs one that can (for text, try 'nxtop summary')$" &&
	tm capture-pane -p -t t | grep -q "^nxtop-exited 1$" ||
	fail "TERM=dumb: $(tm capture-pane -p -t t)"

# A search that tests events one by one (pc>0), the terminal resized
# while it reads (NXTOP_TEST_READING_MS makes each reading last 3 s): its
# busy line shows again on the new bottom line, alone, the resize does
# not stop it, and once it ends the pane shows the screen of a headless
# run that searched and then resized.
printf 'keys /pc>0<Enter>\nsize 100x30\ndump found\n' > "$tmp/resize.keys"
"$NXTOP" -q --headless="$tmp/resize.keys" --dump="$tmp" "$tmp/p.json" ||
	fail "resize: the headless run failed"
tm kill-session -t t 2>/dev/null
tm new-session -d -s t -x 80 -y 24 \
	"env LC_ALL=C.UTF-8 TERM=xterm-256color XDG_DATA_HOME='$tmp/data-resize' NXTOP_TEST_READING_MS=3000 '$NXTOP' -q '$tmp/p.json'; echo nxtop-exited; sleep 30"
# line N of the pane is the busy line
busy_at() {
	tm capture-pane -p -t t | sed -n "$1p" |
		grep -qxF 'searching event by event for pc>0 (any key stops)...'
}
await 200 top_has " insights\{0,1\} " || fail "resize: nxtop did not start"
type_keys '/pc>0<Enter>'
await 100 busy_at 24 || fail "resize: no busy line: $(tm capture-pane -p -t t)"
tm resize-window -t t -x 100 -y 30
await 40 busy_at 30 ||
	fail "resize: no busy line at the new size: $(tm capture-pane -p -t t)"
[ "$(tm capture-pane -p -t t | grep -c .)" = 1 ] ||
	fail "resize: the busy line is not alone: $(tm capture-pane -p -t t)"
wait_screen "$tmp/found" "resize/found"
tm send-keys -t t q

# q quits and the shell's screen comes back
run start
tm send-keys -t t q
await 200 pane_has nxtop-exited || fail "q did not quit"
tm capture-pane -p -t t | grep -q "Engines" && fail "the screen was not restored"
pass
