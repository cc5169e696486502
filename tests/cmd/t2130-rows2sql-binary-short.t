#!/bin/sh
# rows2sql writes each binary value as the shorter of _binary'...' and
# 0x... (the default): values of every byte 0-255, NUL, backslash, quotes,
# Ctrl-Z, CR, LF, invalid UTF-8 and random bytes come back byte-exact
# (HEX() equal) through the mariadb client under the utf8mb4 and latin1
# client charsets and through sqlsplit | sqlexec, in one INSERT and in
# the SET @v=CONCAT(...) pieces of a row larger than max_allowed_packet;
# the text is smaller than --hex-blob's.
. "$(dirname "$0")/../lib.sh"
need_server

SRC=t2130_src
fresh_db $SRC
sql $SRC -e "CREATE TABLE b (id INT PRIMARY KEY, lb LONGBLOB,
    vb VARBINARY(300), bn BINARY(16))"
# Rows as hex literals (exact whatever this test gets wrong): every byte,
# escape-only, invalid UTF-8 and sjis-like 0x5C/0x27 second bytes, short
# values (hex is shorter there), empty, NULL, random of 100 KB and 300 KB.
perl -e '
	srand(2130);
	sub rnd { join "", map { chr(int(rand(256))) } 1 .. $_[0] }
	sub lit { length $_[0] ? "0x" . unpack("H*", $_[0]) : "\x27\x27" }
	my @v = (
	    join("", map { chr } 0 .. 255) x 4,
	    "\\\x27\"\0\n\r\x1a" x 40,
	    "ok\xC0\x80\xED\xA0\x80\x80\xF5\x90\x80\x80\xFF\xFE\x81\x5C\x27" .
	        "\x81\x5C\x5C\x81\x27\x82\x22\xE3\x81\x5C" x 20,
	    "\x00", "\\", "\x27", "\x1a", "abc", "\xFF\xFE\x00\x5C\x27\x22x",
	    "", rnd(100000), rnd(300000), rnd(300));
	my $id = 0;
	for my $x (@v) {
		$id++;
		my $s = substr($x, 0, 300);
		my $n = substr(rnd(16), 0, $id % 17);
		print "INSERT INTO b VALUES ($id, ", lit($x), ", ", lit($s),
		    ", ", lit($n), ");\n";
	}
	print "INSERT INTO b VALUES (99, NULL, NULL, NULL);\n";
' | sql $SRC; is $? 0 "source rows loaded"
db_hex $SRC >src.hex
like "$(grep -c . src.hex)" '^14$' "14 source rows to compare"

dbsnap $(CONN) $SRC >s.rp; is $? 0 "dbsnap"
rows2sql s.rp >short.sql; is $? 0 "rows2sql (default)"
rows2sql --hex-blob s.rp >hex.sql; is $? 0 "rows2sql --hex-blob"
like "$(grep -c "_binary'" short.sql)" '^[1-9]' "escaped _binary strings by default"
like "$(grep -c "(2,0x" short.sql)" '^1$' "an escape-only value stays hex"
like "$(grep -c "(4,0x00,0x00," short.sql)" '^1$' "one-byte values stay hex"
s=$(wc -c <short.sql) h=$(wc -c <hex.sql)
[ $((s * 10)) -lt $((h * 6)) ]; ok $? "under 0.6 of --hex-blob's size: $s against $h bytes"

load() {	# load DST OPTS WHAT CMD...: rows2sql OPTS into DST by CMD, HEX() checked
	_d=$1 _o=$2 _w=$3
	shift 3
	sql -e "DROP DATABASE IF EXISTS $_d"
	rows2sql $_o --rename-db $SRC=$_d s.rp >"$_d.sql"
	"$@" <"$_d.sql" >"$_d.out" 2>&1; is $? 0 "$_w: loads"
	db_hex $_d >"$_d.hex"
	cmp -s "$_d.hex" src.hex; ok $? "$_w: HEX() of every value"
	diff "$_d.hex" src.hex | cut -c1-70 | sed -n '1,6s/^/# /p'
	grep -v '^Warning' "$_d.out" | sed -n '1,3s/^/# /p'
	sql -e "DROP DATABASE IF EXISTS $_d"
}
my() { mariadb --no-defaults -uroot -S "$RP_SOCK" "$@"; }
split_exec() { sqlsplit | sqlexec $(CONN) -j 2; }

load t2130_u "" "mariadb, utf8mb4" my --default-character-set=utf8mb4
load t2130_l "" "mariadb, latin1" my --default-character-set=latin1
load t2130_d "" "mariadb, its default charset" my
load t2130_s "" "sqlsplit | sqlexec -j 2" split_exec
# A row an INSERT, a unit each: all but the first into the table go by
# bulk execute, the literals bound (lib/sqllit, sqlexec's lit.c).
rows2sql --max-statement-size=1024 --rename-db $SRC=t2130_b s.rp | sqlsplit |
    sqlexec $(CONN) -j 2 --commit-every 1 2>bind.err; is $? 0 "bound: loads"
like "$(cat bind.err)" ' [1-9][0-9]* by bulk execute' "bound: by bulk execute"
db_hex t2130_b >t2130_b.hex
cmp -s t2130_b.hex src.hex; ok $? "bound: HEX() of every value"
sql -e "DROP DATABASE t2130_b"

# Rows larger than the packet: pieces, each the shorter form.
rows2sql --max-allowed-packet=65536 s.rp >pieces.sql; is $? 0 "rows2sql, 64 KiB packet"
like "$(grep -c "^SET @rp_v1=IFNULL(CONCAT(@rp_v1,_binary'" pieces.sql)" '^[1-9]' \
    "pieces as escaped strings"
n=$(grep -c "^SET @rp_v1=" pieces.sql)
[ "$n" -lt 12 ]; ok $? "pieces fill the packet: $n statements for 400 KB of values"
load t2130_pu --max-allowed-packet=65536 "pieces, mariadb" my \
    --default-character-set=utf8mb4 --max-allowed-packet=65536
load t2130_ps --max-allowed-packet=65536 "pieces, sqlsplit | sqlexec" split_exec

sql -e "DROP DATABASE $SRC"
done_testing
