#!/bin/sh
# What the code offers the user is in man/nxtop.1 and README.md, taken
# from the code's own tables: commands (src/cli/main.c); long and short
# options (the getopt tables of src/cli/), each with a line of its own
# in --help and an entry in the man page; : commands (the view command
# tables and handlers of tui/), and no : command the docs name that is
# none; keys (the man page's generated KEYS list, which test_tui holds
# to tui/request.h) in the README; the command line's editing keys
# (tui/prompt.c) in COMMAND LINE, the help screen and the README;
# headless script commands (tui/headless.c) in HEADLESS MODE; analysis
# rules and their parameters with defaults (model/analyze/rules.c) in
# ANALYSIS RULES and the README; the cache's track kinds and file roles
# in CACHE SCHEMA (test_columns checks its tables and columns); the
# fields of --group and --row and their other names (model/sysrows.c);
# environment variables (getenv) in ENVIRONMENT; exit statuses
# (src/cli/cli.h) in EXIT STATUS; and search fields and their aliases
# (model/query.h) in the README (test_columns checks the man page's).
set -u
. "${srcdir:-.}/tests/lib.sh"

cd "$srcdir" || exit 1
man=man/nxtop.1
readme=README.md

# in_man WORD: WORD as roff writes it (\- for -), not inside a longer
# word (a font change such as \fR may follow, a \- may not)
in_man() {
	w=$(printf '%s' "$1" | sed 's/-/\\\\-/g')
	grep -Eq -- "(^|[^a-zA-Z0-9_-])$w([^a-zA-Z0-9_\\\\]|\\\\[^-]|$)" "$2"
}
in_readme() {
	grep -Eq -- "(^|[^a-zA-Z0-9_-])$1([^a-zA-Z0-9_-]|$)" "$2"
}
# section NAME: the man page's section NAME
section() {
	awk -v s=".SH $1" '$0 == s { on = 1; next } /^\.SH / { on = 0 } on' "$man"
}
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
cp "$man" "$tmpd/man"
cp "$readme" "$tmpd/readme"
section ENVIRONMENT > "$tmpd/env"
section "EXIT STATUS" > "$tmpd/exit"
sed -n '/^Exit status:/,/^$/p' "$readme" > "$tmpd/rexit"
sed -n '/^## Search queries/,/^## /p' "$readme" > "$tmpd/rquery"
sed -n '/^\.\\" keys: generated/,/^\.\\" keys: end/p' "$man" > "$tmpd/keys"
[ -s "$tmpd/env" ] && [ -s "$tmpd/exit" ] && [ -s "$tmpd/rexit" ] &&
	[ -s "$tmpd/rquery" ] && [ -s "$tmpd/keys" ] ||
	fail "a section to check is missing from $man or $readme"

# both KIND WORD [README-FORM]: WORD in the man page and the README
both() {
	in_man "$2" "$tmpd/man" || fail "$man lacks $1 $2"
	in_readme "${3:-$2}" "$tmpd/readme" || fail "$readme lacks $1 ${3:-$2}"
}

n=0
for c in $(sed -n 's/^[[:space:]]*{ "\([a-z]*\)", cmd_[a-z]* },*$/\1/p' src/cli/main.c); do
	both command "nxtop $c"
	n=$((n + 1))
done
[ "$n" -ge 7 ] || fail "only $n commands found in src/cli/main.c"

n=0
for o in $(cat src/cli/*.c src/cli/*.h |
	sed -n 's/.*{ *"\([a-z][a-z-]*\)", *\(no\|required\|optional\)_argument.*/\1/p' |
	sort -u); do
	both option "--$o"
	n=$((n + 1))
done
[ "$n" -ge 30 ] || fail "only $n long options found in src/cli/"

# every long option but an alias (one whose value an option of another
# name has: --colour) has a line of its own in --help and an entry of
# its own in the man page (".TP" then ".BR \-\-name =...")
"$NXTOP" --help > "$tmpd/help"
n=0
for o in $(cat src/cli/*.c src/cli/*.h |
	sed -n 's/.*{ *"\([a-z][a-z-]*\)", *[a-z]*_argument, *NULL, *\([^ }]*\) *}.*/\1 \2/p' |
	awk '!($2 in by) { by[$2] = $1 } by[$2] == $1 { print $1 }' | sort -u); do
	grep -Eq -- "^ +(-[a-zA-Z], )?--$o(=| |$)" "$tmpd/help" ||
		fail "nxtop --help has no line for --$o"
	w=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	awk '/^\.TP$/ { getline; print }' "$man" |
		grep -Eq -- "^\.B[IR]? (\\\\-[a-zA-Z] \", \" )?\\\\-\\\\-$w( |=|$)" ||
		fail "$man has no entry for --$o"
	n=$((n + 1))
done
[ "$n" -ge 30 ] || fail "only $n options with an entry found in src/cli/"
for o in $(cat src/cli/*.c src/cli/*.h |
	sed -n "s/.*_argument, *NULL, *'\\([a-zA-Z]\\)'.*/\\1/p" | sort -u); do
	both option "-$o"
done

# every field of --group and --row (model/sysrows.c) and each of its
# other names in the man page's --group entry and the README
awk '/^\.TP$/ { getline; on = index($0, ".BR \\-\\-group =") == 1 }
	on' "$man" > "$tmpd/group"
n=0
for f in $(sed -n 's/^[[:space:]]*\[SYSF_[A-Z]*\] = { \(.*\) }, "[a-z]*" },$/\1/p' \
	model/sysrows.c | tr -d '{},"' | sed 's/NULL//g'); do
	grep -Eq "(^\.B |^\.RB \( |\" )$f( |$)" "$tmpd/group" ||
		fail "$man's --group lacks the field $f"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n --group fields found in model/sysrows.c"
for f in $(sed -n 's/^[[:space:]]*\[SYSF_[A-Z]*\] = { "\([a-z_]*\)".*/\1/p' \
	model/sysrows.c); do
	grep -qF "\`$f\`" "$readme" || fail "$readme lacks the --group field $f"
done

# every --what of export and diff (as their error for an unknown one
# lists them) in --help and in the man page's --what option
"$NXTOP" --help | sed -n '/--what=WHAT/,/--range/p' > "$tmpd/hwhat"
sed -n '/^\.BR \\-\\-what =/,/^\.TP/p' "$man" > "$tmpd/mwhat"
[ -s "$tmpd/hwhat" ] && [ -s "$tmpd/mwhat" ] ||
	fail "no --what in --help or $man"
for cmd in export diff; do
	list=$("$NXTOP" "$cmd" --what=nosuch a b 2>&1 |
		sed -n "s/^nxtop: unknown --what 'nosuch' (\(.*\))$/\1/p" |
		sed 's/ or /, /' | tr -d ',')
	[ -n "$list" ] || fail "$cmd: its error does not list the --what values"
	for w in $list; do
		grep -qw -- "$w" "$tmpd/hwhat" || fail "--help lacks $cmd --what $w"
		grep -Eq "^\.BR? $w( |$)" "$tmpd/mwhat" ||
			fail "$man's --what lacks $cmd's $w"
	done
done

(awk '/^(static )?const struct view_cmd [a-z_]+\[\] = \{/ { on = 1; next }
	on && /^\};/ { on = 0 } on' tui/*.c tui/timeline/*.c |
	sed -n 's/^[[:space:]]*{ "\([a-z][a-z-]*\)".*/\1/p'
 grep -ho 'strcmp(argv\[0\], "[a-z-]*")' tui/*.c tui/timeline/*.c |
	sed 's/.*"\(.*\)".*/\1/') | sort -u > "$tmpd/cmds"
n=0
for c in $(cat "$tmpd/cmds"); do
	both "command" ":$c"
	n=$((n + 1))
done
[ "$n" -ge 20 ] || fail "only $n : commands found in tui/"
# and the other way round: a : command the docs name is one, or a
# request's name (tui/request.h)
sed -n 's/.*REQ([A-Z_]*, "\([a-z-]*\)".*/\1/p' tui/request.h >> "$tmpd/cmds"
for c in $( (grep -o '^\.B[IR]\{0,1\} "\{0,1\}:[a-z][a-z\\-]*' "$man" |
		sed 's/.*://; s/\\-/-/g'
	     grep -o '`:[a-z][a-z-]*' "$readme" | sed 's/`://') | sort -u); do
	grep -qx -- "$c" "$tmpd/cmds" ||
		fail "the docs name :$c, which is no command"
done

# keys: "<PgDown>" is written PgDown, others as they are typed
n=0
for k in $(sed -n '/^\.TP$/{n;s/^\.B //p;}' "$tmpd/keys" |
	sed 's/\\-/-/g; s/\\&//g; s/\\(dq/"/g' | tr ' ' '\n' | sort -u); do
	case $k in
	\<*\>) k=${k#<}; k=${k%>}
		grep -qF -- "$k" "$tmpd/readme" || fail "$readme lacks the key $k" ;;
	*) grep -qF -- "\`$k\`" "$tmpd/readme" || fail "$readme lacks the key \`$k\`" ;;
	esac
	n=$((n + 1))
done
[ "$n" -ge 50 ] || fail "only $n keys found in $man"

# the command line's editing keys (tui/prompt.c) in COMMAND LINE, in
# the help screen's words on it (tui/help.c) and in the README
section "COMMAND LINE" > "$tmpd/cmdline"
n=0
for c in $(grep -o "KEY_CTRL('[a-z]')" tui/prompt.c | cut -c11 | sort -u); do
	u=$(printf '%s' "$c" | tr a-z A-Z)
	grep -q "Ctrl\\\\-$u\\>" "$tmpd/cmdline" ||
		fail "$man COMMAND LINE lacks Ctrl-$u"
	grep -q "Ctrl-$u\\>" tui/help.c ||
		fail "the help screen's command line keys lack Ctrl-$u"
	grep -qF "\`C-$c\`" "$readme" || fail "$readme lacks the key \`C-$c\`"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n Ctrl keys found in tui/prompt.c"

# headless script commands (tui/headless.c) in HEADLESS MODE, and in
# the list the error for an unknown one gives
section "HEADLESS MODE" > "$tmpd/headless"
cp tests/fixtures/device_small.json "$tmpd/small.json"
printf 'nosuch\n' > "$tmpd/bad.keys"
"$NXTOP" -q --headless="$tmpd/bad.keys" --dump="$tmpd" "$tmpd/small.json" \
	2> "$tmpd/bad.err"
sed -n "s/.*unknown script command 'nosuch' (\(.*\))$/\1/p" "$tmpd/bad.err" |
	tr -d ',' | tr ' ' '\n' > "$tmpd/hlist"
[ -s "$tmpd/hlist" ] || fail "no list of script commands in: $(cat "$tmpd/bad.err")"
n=0
for c in $(grep -o 'strcmp(line, "[a-z]*")' tui/headless.c |
	sed 's/.*"\(.*\)".*/\1/' | sort -u); do
	grep -Eq "^\.B[IR]? \"?$c( |\"|$)" "$tmpd/headless" ||
		fail "$man HEADLESS MODE lacks the script command $c"
	grep -qx "$c" "$tmpd/hlist" ||
		fail "the error for an unknown script command does not list $c"
	n=$((n + 1))
done
[ "$n" -ge 8 ] || fail "only $n script commands found in tui/headless.c"

# analysis rules (model/analyze/rules.c), each parameter with its
# default, in ANALYSIS RULES (".B param" then "(default) ...") and in
# the README's table of rules ("`param` (default)")
section "ANALYSIS RULES" > "$tmpd/rules"
sed -n 's/.*{ "\([a-z-]*\)", AN_[A-Z]*,.*/rule \1/p
	s/.*{ "\([a-z_]*\)", \([0-9.]*\), ".*/param \1 \2/p' \
	model/analyze/rules.c > "$tmpd/rlist"
n=0
while read -r kind a b; do
	if [ "$kind" = rule ]; then
		r=$a
		w=$(printf '%s' "$r" | sed 's/-/\\\\-/g')
		awk -v h=".B $w" '$0 == ".TP" { getline; on = $0 == h }
			/^\.PP/ { on = 0 } on' "$tmpd/rules" > "$tmpd/rule"
		[ -s "$tmpd/rule" ] || fail "$man ANALYSIS RULES lacks the rule $r"
		grep -q "^| \`$r\` |" "$readme" ||
			fail "$readme's rules lack $r"
		n=$((n + 1))
		continue
	fi
	awk -v p=".B $a" -v d="($b)" '$0 == p { getline; if (index($0, d) == 1) f = 1 }
		END { exit !f }' "$tmpd/rule" ||
		fail "$man ANALYSIS RULES: $r lacks its parameter $a ($b)"
	grep "^| \`$r\` |" "$readme" | grep -qF "\`$a\` ($b)" ||
		fail "$readme's rules: $r lacks its parameter \`$a\` ($b)"
done < "$tmpd/rlist"
[ "$n" -ge 10 ] || fail "only $n analysis rules found in model/analyze/rules.c"

# CACHE SCHEMA's track entry names every track kind (model/writer/
# writer.h), its source entry every role the importers give a file
section "CACHE SCHEMA" > "$tmpd/schema"
# schema_entry TABLE: the text of TABLE's entry
schema_entry() {
	awk -v h=".B $1(" '$0 == ".TP" { getline; on = index($0, h) == 1; next }
		/^\.(PP|TP)/ { on = 0 } on' "$tmpd/schema"
}
schema_entry track > "$tmpd/track"
n=0
for k in $(sed -n 's/^#define TK_[A-Z_]* "\([a-z_]*\)".*/\1/p' \
	model/writer/writer.h); do
	grep -qw -- "$k" "$tmpd/track" ||
		fail "$man CACHE SCHEMA: track lacks the kind $k"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n track kinds found in model/writer/writer.h"
schema_entry source > "$tmpd/source"
n=0
for r in $(cat src/*/*.c src/import/*/*.c model/*/*.c | tr '\n' ' ' |
	grep -oE 'writer_source(_as)?\([^;]*;' | grep -o '"[a-z]*"' |
	tr -d '"' | sort -u); do
	grep -qw -- "$r" "$tmpd/source" ||
		fail "$man CACHE SCHEMA: source lacks the role $r"
	n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n source roles found in the importers"

for e in $(grep -rho 'getenv("[A-Z_]*")' src model tui |
	sed 's/.*"\(.*\)".*/\1/' | grep -v '^NXTOP_TEST_' | sort -u); do
	grep -q "^\.BR* .*\<$e\>" "$tmpd/env" ||
		fail "$man ENVIRONMENT lacks $e"
	in_readme "$e" "$tmpd/readme" || fail "$readme lacks $e"
done

for s in 0 $(sed -n 's/^#define EXIT_[A-Z_]* \([0-9][0-9]*\).*/\1/p' src/cli/cli.h); do
	grep -qx "\.B $s" "$tmpd/exit" || fail "$man EXIT STATUS lacks $s"
	grep -Eq "(^|[ :])$s [a-z\`]" "$tmpd/rexit" ||
		fail "$readme's exit statuses lack $s"
done

n=0
for f in $(sed -n 's/^[[:space:]]*F([A-Z_]*, "\([a-z_.A-Z]*\)", \("[a-z_]*"\|NULL\),.*/\1 \2/p' \
	model/query.h | tr -d '"' | tr ' ' '\n' | grep -v '^NULL$' | sort -u); do
	grep -qF -- "\`$f\`" "$tmpd/rquery" ||
		fail "$readme's search queries lack the field \`$f\`"
	n=$((n + 1))
done
[ "$n" -ge 30 ] || fail "only $n search fields found in model/query.h"

pass
