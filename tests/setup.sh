#!/bin/sh
# The README's first set-up command: its install step works as written
# as root with no sudo on PATH (a root container), and as a user it asks
# sudo. apt-get, apt-cache and sudo are stand-ins that record what they
# were asked, so nothing is installed.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the recent list of the profiles imported stays in the test's folder
export XDG_DATA_HOME="$tmp/data"
chmod 755 "$tmp"

# The command as the README gives it: the indented line under "Set up".
cmd=$(awk '/^## Set up/ { s = 1 } s && /^    [^ ]/ { sub(/^    /, ""); print; exit }' \
	"$srcdir/README.md")
[ -n "$cmd" ] || fail "README has no set-up command under '## Set up'"
step=${cmd%%&&*}
step=$(echo $step)
case $step in
*install-deps) ;;
*) fail "the set-up command does not start with the install step: $cmd" ;;
esac

# A PATH with the basic tools and recording stand-ins, and no sudo.
mkdir "$tmp/bin"
for t in sh id cat; do
	ln -s "$(command -v $t)" "$tmp/bin/$t"
done
for t in apt-get apt-cache; do
	printf '#!/bin/sh\necho "$(id -u) %s $*" >>"%s/log"\n' "$t" "$tmp" >"$tmp/bin/$t"
	chmod 755 "$tmp/bin/$t"
done
cp "$srcdir/install-deps" "$tmp/install-deps"
: >"$tmp/log"
chmod 666 "$tmp/log"

run_step() { (cd "$tmp" && PATH="$tmp/bin" eval "$step"); }

if [ "$(id -u)" -eq 0 ]; then
	run_step >"$out" 2>&1 || fail "as root without sudo: '$step' failed: $(cat "$out")"
	grep -q '^0 apt-get install .*libncurses-dev' "$tmp/log" ||
		fail "as root: no apt-get install as root: $(cat "$tmp/log")"
	# As a user: the same step asks sudo (here a stand-in that records it).
	printf '#!/bin/sh\necho "sudo $*" >>"%s/log"\n' "$tmp" >"$tmp/bin/sudo"
	chmod 755 "$tmp/bin/sudo"
	: >"$tmp/log"
	if sp=$(command -v setpriv); then
		(cd "$tmp" && PATH="$tmp/bin" "$sp" --reuid=65534 --regid=65534 \
			--clear-groups sh -c "$step") >"$out" 2>&1 ||
			fail "as a user: '$step' failed: $(cat "$out")"
		grep -q '^sudo apt-get install .*libncurses-dev' "$tmp/log" ||
			fail "as a user: apt-get not run through sudo: $(cat "$tmp/log")"
	else
		echo "setpriv missing: the user case is not checked" >&2
	fi
else
	printf '#!/bin/sh\necho "sudo $*" >>"%s/log"\n' "$tmp" >"$tmp/bin/sudo"
	chmod 755 "$tmp/bin/sudo"
	run_step >"$out" 2>&1 || fail "as a user: '$step' failed: $(cat "$out")"
	grep -q '^sudo apt-get install .*libncurses-dev' "$tmp/log" ||
		fail "as a user: apt-get not run through sudo: $(cat "$tmp/log")"
	echo "not root: the root case (no sudo on PATH) is not checked" >&2
fi
pass
