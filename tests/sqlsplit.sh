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
	for v in $(sql -e "SELECT table_name FROM information_schema.views
	    WHERE table_schema='$1' ORDER BY 1"); do
		sql -e "SHOW CREATE VIEW \`$1\`.\`$v\`" | cut -f1-2
	done
	sql -e "SELECT routine_type, routine_name FROM information_schema.routines
	    WHERE routine_schema='$1' ORDER BY 1, 2" | while read -r ty n; do
		sql -e "SHOW CREATE $ty \`$1\`.\`$n\`" | cut -f1-3
	done
	for n in $(sql -e "SELECT trigger_name FROM information_schema.triggers
	    WHERE trigger_schema='$1' ORDER BY 1"); do
		sql -e "SHOW CREATE TRIGGER \`$1\`.\`$n\`" | cut -f1-3
	done
	for n in $(sql -e "SELECT event_name FROM information_schema.events
	    WHERE event_schema='$1' ORDER BY 1"); do
		sql -e "SHOW CREATE EVENT \`$1\`.\`$n\`" | cut -f1-4
	done
}
