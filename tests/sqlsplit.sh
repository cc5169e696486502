# tests/sqlsplit.sh: helpers the sqlsplit agreement tests share; sourced
# after tests/lib.sh.

# norm client|split: one normalized statement a line (see above).  USE is
# run by the client itself and not echoed, so it is left out of ours.
norm() {
	perl -e '
	my $mode = shift; local $/; my $in = <STDIN>; my @q;
	if ($mode eq "client") {
		push @q, $1 while $in =~ /^--------------\n(.*?)\n--------------\n/msg;
	} else {
		@q = grep { !/^\s*use\b/i } split /\0/, $in;
	}
	for my $s (@q) {
		$s =~ s{/\*(?![!M]).*?\*/}{ }gs;
		$s =~ s/(#|--(\s|$)).*$//mg;
		$s =~ s/\s+/ /g;
		$s =~ s/^ | $//g;
		print "$s\n" if length $s;
	}' "$1"
}

# dbstate DB: checksums and definitions of everything in DB, DB renamed.
dbstate() {
	dbstate_raw "$1" | sed "s/$1/DB/g"
}
dbstate_raw() {
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema='$1' AND table_type LIKE '%TABLE' ORDER BY 1"); do
		sql -e "CHECKSUM TABLE \`$1\`.\`$t\` EXTENDED"
		sql -e "SHOW CREATE TABLE \`$1\`.\`$t\`"
	done
	db_defs "$1"
}
