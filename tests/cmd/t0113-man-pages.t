#!/bin/sh
# The man pages: "man rowpipe" opens the recipes, the frame format is
# rowpipe-stream(5), and every cross reference to one of rowpipe's pages
# names a page that exists.  No server needed.
. "$(dirname "$0")/../lib.sh"
M=$RP_TOP/man
command -v man >/dev/null || skip_all "no man(1)"

is "$(man -M "$M" -w rowpipe)" "$M/man7/rowpipe.7" "man rowpipe: the recipes, rowpipe(7)"
is "$(man -M "$M" -w rowpipe-stream)" "$M/man5/rowpipe-stream.5" \
    "man rowpipe-stream: the frame format"
like "$(sed -n '/^\.Sh NAME/,/^\.Sh/p' "$M/man7/rowpipe.7")" "recipes" \
    "rowpipe(7) is the recipes page"

# .Xr NAME SECTION for our pages: the file must exist.
ours="dbsnap rows2sql sqlsplit sqlexec lz rowpipe rowpipe-stream"
bad=
for f in "$M"/man*/*.[0-9]; do
	for x in $(grep -h '^\.Xr ' "$f" | awk '{ print $2 "." $3 }' | sort -u); do
		name=${x%.*} sec=${x##*.}
		case " $ours " in *" $name "*) ;; *) continue ;; esac
		[ -f "$M/man$sec/$name.$sec" ] || bad="$bad ${f##*/}:$name($sec)"
	done
done
is "$bad" "" "every cross reference to a rowpipe page exists"
is "$(grep -rl 'rowpipe(5)\|Xr rowpipe 5' "$M" "$RP_TOP/README.md" 2>/dev/null)" "" \
    "no reference to the old name rowpipe(5)"
done_testing
