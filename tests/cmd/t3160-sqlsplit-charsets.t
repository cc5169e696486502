#!/bin/sh
# sqlsplit and the character sets whose two-byte characters may end in a
# backslash byte (sjis, cp932, gbk, big5; gb18030): a dump made with
# --default-character-set=sjis holds 0x835C ("so") before a closing
# quote, which the mysql client reads right only when started in sjis,
# and a reader of bytes takes for an escaped quote.  sqlsplit reads bytes,
# so it refuses the statement that switches to such a character set
# (SET NAMES, SET CHARACTER SET, character_set_client by name or collation
# id), with its line, offset and the character set, instead of cutting
# the text wrongly: "cannot split", naming the client command to use, and
# its stream ends with an ABORT frame (reason cannot split), so that
# sqlexec says so and not "truncated", with no resume point (issue 25).  The mysql client started in that character set is the
# reference: it restores each dump whole.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

fresh_db t3160
# the sjis, cp932, gbk and big5 text of tests/data/alltypes.sql: characters
# with 0x5C second bytes, then a backslash and a quote; and one such
# character alone, before the closing quote
for cs in sjis cp932 gbk big5; do
	case $cs in
	sjis|cp932) v=835C955C8A5C5C27 c=835C;;
	gbk) v=815CD55C5C27 c=815C;;
	big5) v=A45CA55C5C27 c=A45C;;
	esac
	sql t3160 -e "CREATE TABLE $cs (id INT PRIMARY KEY,
	    v VARCHAR(20) CHARACTER SET $cs);
	    INSERT INTO $cs VALUES (1, _$cs 0x$v), (2, _$cs 0x$c)" || exit 1
done

for cs in sjis cp932 gbk big5; do
	mariadb-dump --no-defaults -uroot -S "$RP_SOCK" \
	    --default-character-set=$cs t3160 $cs >$cs.sql
	like "$(od -An -tx1 -v $cs.sql | tr -d ' \n')" "5c27(2c|29)" \
	    "$cs: the dump has a 0x5C second byte before a closing quote"
	want=$(sql -e "SELECT id, HEX(v) FROM t3160.$cs ORDER BY id")
	fresh_db t3160_ref
	mariadb --no-defaults -uroot -S "$RP_SOCK" --default-character-set=$cs \
	    t3160_ref <$cs.sql
	is "$(sql -e "SELECT id, HEX(v) FROM t3160_ref.$cs ORDER BY id")" \
	    "$want" "$cs: the mysql client started in $cs restores it whole"
	line=$(grep -n "SET NAMES $cs" $cs.sql | cut -d: -f1)
	sqlsplit $cs.sql >$cs.rp 2>err
	is $? 1 "$cs: sqlsplit refuses it, exit 1"
	like "$(cat err)" "^sqlsplit: $cs.sql: cannot split \\(use mariadb --default-character-set=$cs DB < FILE: the input is good\\): line $line, offset [0-9]+: SET NAMES: character set $cs: " \
	    "$cs: cannot split: names the client to use, the line, the offset and the character set"
	is "$(wc -l <err)" 1 "$cs: in one line"
	fresh_db t3160_dst
	sqlexec $C t3160_dst <$cs.rp 2>err
	is $? 1 "$cs: sqlexec stops"
	like "$(cat err)" "^sqlexec: stdin: cannot split: sqlsplit: $cs.sql: cannot split \\(use mariadb --default-character-set=$cs " \
	    "$cs: and says cannot split, with the client to use"
	ok $(! grep -q -e truncated -e 'resume with' -e 'skip-to' err; echo $?) \
	    "$cs: not truncated, no resume point"
	is "$(icount "tables WHERE table_schema = 't3160_dst'")" 0 \
	    "$cs: and nothing of the dump ran"
done

# every way to switch, and those that are fine
for s in "SET CHARACTER SET gbk" "SET CHARSET 'big5'" \
    "/*!40101 SET NAMES cp932 COLLATE cp932_bin */" \
    "SET @@session.character_set_client = sjis" \
    "SET SESSION character_set_client = 'GBK'" \
    "SET character_set_client=13,collation_connection=13" \
    "SET @a = 1, NAMES big5"; do
	printf 'SELECT 1;\n%s;\nSELECT 2;\n' "$s" | sqlsplit --list >out 2>err
	r=$?
	is "$r $(wc -l <out)" "1 1" "refused after the statement before it: $s"
	like "$(cat err)" "^sqlsplit: stdin: cannot split \\(use mariadb --default-character-set=[a-z0-9A-Z]+ DB < FILE: the input is good\\): line 2, offset 10: SET [A-Za-z_ ]+: character set [a-z0-9 ]+: " \
	    "and named: $(cat err | cut -c1-70)"
done
for s in "SET NAMES utf8mb4" "SET NAMES latin1 COLLATE latin1_bin" \
    "SET character_set_client = @saved_cs_client" \
    "SET character_set_client = 33" "SET GLOBAL character_set_client = sjis" \
    "SET @cs = 'sjis'"; do
	printf 'SELECT 1;\n%s;\nSELECT 2;\n' "$s" | sqlsplit --list >out 2>err
	is "$? $(wc -l <out)" "0 3" "fine: $s"
done

sql -e "DROP DATABASE t3160; DROP DATABASE t3160_ref; DROP DATABASE t3160_dst"
done_testing
