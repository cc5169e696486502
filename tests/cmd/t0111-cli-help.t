#!/bin/sh
# Every program's --help lists every long option of its man page, each on
# one line with its default where it has one, in 80 columns; every option
# it lists is one the program takes.  No server needed.
. "$(dirname "$0")/../lib.sh"
command -v mandoc >/dev/null || skip_all "no mandoc"

# The long options named in the item tags (.It) of the man page's
# DESCRIPTION, read from its source: "Fl \-name" is --name.  (Rendered
# text was read before, and a sentence that wrapped to begin with another
# program's option was taken for an option of this one.)
man_longopts() {
	awk '/^\.Sh / { sec = $2; next }
	    sec == "DESCRIPTION" && /^\.It / { print }' "$1" |
	    sed 's/\\-/-/g' | grep -oE -- 'Fl -[a-z0-9][a-z0-9-]*' |
	    sed 's/^Fl /-/' | sort -u
}
# The long options an item tag names in a form man_longopts cannot read
# ("-name" after "Fl x ,", which mdoc renders as --name too).
man_unread() {
	awk '/^\.It / { print FILENAME ":" FNR ": " $0 }' "$@" |
	    grep -E -- ' , \\?-[a-z]'
}
# The long options of the --help lines that list options.
help_longopts() {
	grep -E '^ +-' "$1" | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u
}

is "$(man_unread "$RP_TOP"/man/man1/*.1)" "" \
    "every man page writes its long options as Fl \\-name"

for p in dbsnap rows2sql sqlsplit sqlexec lz rows2json json2rows rowmap; do
	$p --help </dev/null >help.txt 2>err
	is "$?" 0 "$p --help: exit 0"
	is "$(cat err)" "" "$p --help: nothing on stderr"
	man_longopts "$RP_TOP/man/man1/$p.1" >man.lst
	help_longopts help.txt >help.lst
	ok $([ -s man.lst ]; echo $?) "$p: the man page lists options"
	is_file help.lst man.lst "$p --help: the man page's long options, no more"
	is "$(awk 'length > 80' help.txt)" "" "$p --help: fits 80 columns"
	# Every option --help names is taken (with a value where it shows one):
	# before --help on the command line, it must not be a usage error.
	bad=
	for o in $(cat help.lst); do
		line=$(grep -E "^ +-" help.txt | grep -E -- "$o(=|\\[|,| |\$)" | head -1)
		case $line in
		*"$o="*) a="$o=1" ;;
		*) a=$o ;;
		esac
		$p "$a" --help </dev/null >/dev/null 2>&1 || bad="$bad $a"
	done
	is "$bad" "" "$p: every option --help lists is taken"
done

# Defaults are shown, read from the program's own initial values.
dbsnap --help >help.txt
like "$(grep -e '--jobs=' help.txt)" "\(default: 1\)" "dbsnap --help: -j default"
like "$(grep -A1 -e '--chunk-rows=' help.txt | tr -s ' \n' ' ')" \
    "\(default: 100000\)" "dbsnap --help: --chunk-rows default"
like "$(grep -e '--triggers ' help.txt)" "\(default\)$" \
    "dbsnap --help: a flag that is on by default says so"
sqlexec --help >help.txt
like "$(grep -A1 -e '--commit-every=' help.txt | tr -s ' \n' ' ')" \
    "\(default: 1M\)" "sqlexec --help: --commit-every default with its suffix"
like "$(grep -e '-p, --password' help.txt)" "PASSWORD" \
    "sqlexec --help: connection options too"
rows2sql --help >help.txt
like "$(grep -e '--no-create, --no-create-info' help.txt)" "." \
    "rows2sql --help: an alias on its option's line"
lz --help >help.txt
like "$(grep -e '-T, --threads' help.txt)" "one per processor" \
    "lz --help: a default that is not a value is in the text"
is "$(lz -h | head -1)" "$(head -1 help.txt)" "lz -h: as --help"

# --help reads no option file: a broken one does not stop it.
printf '[dbsnap]\nsockett=x\n' >bad.cnf
dbsnap --defaults-file=bad.cnf --help >/dev/null 2>err
is "$?" 0 "--help with a bad option file: exit 0"
# ... but an unknown option before it is still a usage error.
dbsnap --bogus --help >/dev/null 2>err
is "$?" 2 "--bogus --help: exit 2"
like "$(head -1 err)" "unrecognized option" "--bogus --help: getopt's message"

done_testing
