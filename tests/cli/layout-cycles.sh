# tests/layout.py finds every cycle on a small tree of its own: folders of
# lib/ that depend on each other by a call alone or by an #include alone,
# files that include each other (a .c and its .h as one), objects that call
# each other; a tree without a cycle passes (issue 27, item 2). The drawing
# of the folders in docs/layout.md must be the tree's.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

LAYOUT="$(cd "$(dirname "$0")/.." && pwd)/layout.py"
command -v cc >/dev/null || skip "no C compiler"
R="$T/tree"
B="$T/build"

put() { # FILE TEXT...: write the lines of TEXT into the tree
	mkdir -p "$(dirname "$R/$1")"
	f=$1
	shift
	printf '%s\n' "$@" >"$R/$f"
}

build() { # compile every .c of the tree into $B, as the Makefile does
	rm -rf "$B"
	(cd "$R" && find lib -name '*.c') | while read -r c; do
		mkdir -p "$B/$(dirname "$c")"
		cc -c -I"$R" -o "$B/${c%.c}.o" "$R/$c" || exit 1
	done || fail "the tree does not compile"
}

layout() { # EXPECTED-EXIT: run the check on the tree, its lines in $T/out
	SB_TOP="$R" SB_BUILD="$B" python3 "$LAYOUT" >"$T/out" 2>&1
	rc=$?
	[ $rc = "$1" ] || { cat "$T/out"; fail "layout exited $rc, expected $1"; }
}

has() { grep -qF -- "$1" "$T/out" || { cat "$T/out"; fail "no line with: $1"; }; }

# lib/b uses lib/a; lib/sb.h is beneath both, outside the folders
put lib/sb.h '#include <stddef.h>'
put lib/a/a.h '#include "lib/sb.h"' 'int a_f(void);'
put lib/a/a.c '#include "lib/a/a.h"' 'int a_f(void) { return 1; }'
put lib/b/b.h '#include "lib/sb.h"' 'int b_g(void);'
put lib/b/b.c '#include "lib/b/b.h"' '#include "lib/a/a.h"' 'int b_g(void) { return a_f(); }'
build
layout 0
has "keep their rules"
ok "lib/b over lib/a: no cycle"

# lib/a calls lib/b without including its header: a cycle of calls only
put lib/a/a.c '#include "lib/a/a.h"' 'int b_g(void);' 'int a_f(void) { return 1; }' \
	'int a_h(void);' 'int a_h(void) { return b_g(); }'
build
layout 1
has "folders of lib/ depend on each other (a cycle): lib/a -> lib/b (lib/a/a.c calls b_g of lib/b/b.c); lib/b -> lib/a"
has "files call each other (a cycle): lib/a/a.c lib/b/b.c"
ok "a call back from lib/a to lib/b is a folder cycle"

# a file of lib/a includes a header of lib/b and calls nothing of it: a
# folder cycle from the #include alone, no cycle between files
put lib/a/a.c '#include "lib/a/a.h"' 'int a_f(void) { return 1; }'
put lib/a/c.c '#include "lib/b/b.h"' 'int c_k(void);' 'int c_k(void) { return 2; }'
build
layout 1
has "folders of lib/ depend on each other (a cycle): lib/a -> lib/b (lib/a/c.c includes lib/b/b.h)"
grep -q "files" "$T/out" && { cat "$T/out"; fail "a file cycle reported"; }
[ "$(grep -c . "$T/out")" = 2 ] || { cat "$T/out"; fail "more than the one problem"; }
ok "an #include back from lib/a to lib/b is a folder cycle"

# inside one folder: y.c includes x.h, which includes y.h
rm "$R/lib/a/c.c"
put lib/b/y.h '#ifndef Y_H' '#define Y_H' '#include "lib/sb.h"' 'struct y { int v; };' \
	'int y_v(const struct y *p);' '#endif'
put lib/b/x.h '#ifndef X_H' '#define X_H' '#include "lib/b/y.h"' 'int x_w(const struct y *p);' '#endif'
put lib/b/y.c '#include "lib/b/y.h"' '#include "lib/b/x.h"' \
	'int y_v(const struct y *p) { return p->v; }'
build
layout 1
has "files include each other (a .c and its .h as one): lib/b/x -> lib/b/y (lib/b/x.h includes lib/b/y.h); lib/b/y -> lib/b/x (lib/b/y.c includes lib/b/x.h)"
grep -q "folders" "$T/out" && { cat "$T/out"; fail "a folder cycle reported"; }
ok "a header of one file included by another's .c, both ways: a cycle of files"

# the drawing of the folders in docs/layout.md is the tree's, or a problem
put lib/b/y.c '#include "lib/b/y.h"' 'int y_v(const struct y *p) { return p->v; }'
build
SB_TOP="$R" SB_BUILD="$B" python3 "$LAYOUT" --graph >"$T/graph" || fail "--graph failed"
printf '```mermaid\nflowchart TD\n  b --> a\n```\n' | cmp -s - "$T/graph" ||
	{ cat "$T/graph"; fail "--graph does not draw lib/b over lib/a"; }
put docs/layout.md '# the tree' '' '<!-- folders of lib/: python3 tests/layout.py --graph -->' \
	'```mermaid' 'flowchart TD' '  b --> a' '```' '<!-- end of the folders -->' 'more text'
layout 0
ok "a drawing of lib/b over lib/a holds"
put docs/layout.md '# the tree' '' '<!-- folders of lib/: python3 tests/layout.py --graph -->' \
	'```mermaid' 'flowchart TD' '  a --> b' '```' '<!-- end of the folders -->'
layout 1
has "docs/layout.md: its drawing of lib/'s folders is not the tree's"
[ "$(grep -c . "$T/out")" = 2 ] || { cat "$T/out"; fail "more than the one problem"; }
ok "a drawing with the arrow the wrong way fails"
