#!/bin/sh
# rows2sql without a server: options, literals, statement sizes, filters,
# renames, the trailer, and bad input (empty, SQL text, truncated, corrupt).
. "$(dirname "$0")/../lib.sh"

# r2s-gen input with | for tabs.
gen() { tr '|' '\t' | r2s-gen; }

cat >base.txt <<'X'
HEADER|producer=test server_version=10.11 time_zone=+00:00
OBJECT|database|d1|d1|CREATE DATABASE `d1` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci */
OBJECT|table|d1|t1|CREATE TABLE `t1` (\n  `id` int NOT NULL,\n  `s` varchar(20),\n  `b` blob,\n  `l` varchar(20) CHARACTER SET latin1,\n  `g` int AS (id+1) VIRTUAL,\n  `h` int INVISIBLE,\n  PRIMARY KEY (`id`)\n)
OBJECT|table|d1|t2|CREATE TABLE `t2` (`a` int)
TABLE|1|d1|t1|6
COLUMN|1|0|id|3|0x61|63|0|int(11)
COLUMN|1|1|s|253|0|45|0|varchar(20)
COLUMN|1|2|b|252|0x4|63|0|blob
COLUMN|1|3|l|253|0|8|0|varchar(20)
COLUMN|1|4|g|3|0x48|63|0|int(11)
COLUMN|1|5|h|3|0x50|63|0|int(11)
TABLE|2|d1|t2|1
COLUMN|2|0|a|3|0x40|63|0|int(11)
ROW|1|31|'it\x27s \\ "ok"\n\r\x1a\0|00FF5C27|E9|33|37
ROW|2|35
ROW|1|32|\N|\N|'plain|33|\N
ROW|1|33|F09F9880C3|'|C3|34|\N
TABLE_END|1|3
TABLE_END|2|1
OBJECT|view|d1|v1|CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `d1`.`v1` AS select `d1`.`t1`.`id` AS `id`, 'd1`.' AS `x` from `d1`.`t1`|character_set_client=utf8mb4 collation_connection=utf8mb4_general_ci
OBJECT|procedure|d1|p1|CREATE DEFINER=`u``x`@`%` PROCEDURE `p1`()\nBEGIN\n  SELECT ';;';\nEND|sql_mode=ANSI_QUOTES,NO_BACKSLASH_ESCAPES character_set_client=utf8mb4 collation_connection=utf8mb4_general_ci collation_database=utf8mb4_unicode_ci
OBJECT|trigger|d1|tr1|CREATE DEFINER=`root`@`localhost` TRIGGER `tr1` BEFORE INSERT ON `t1` FOR EACH ROW SET NEW.h = 1|table=t1 sql_mode= character_set_client=utf8mb4 collation_connection=utf8mb4_general_ci collation_database=utf8mb4_general_ci
X
{ cat base.txt; echo TRAILER; } | gen >s.rp

rows2sql --version >/dev/null; is $? 0 "--version exits 0"
rows2sql --bogus 2>err </dev/null; is $? 2 "unknown option exits 2"
rows2sql --insert=merge 2>err </dev/null; is $? 2 "bad --insert exits 2"
like "$(cat err)" "^rows2sql: --insert merge: expected" "bad --insert names the value"
rows2sql --max-statement-size=1x 2>err </dev/null; is $? 2 "bad size exits 2"
rows2sql --rename=nothing 2>err </dev/null; is $? 2 "--rename without = exits 2"
rows2sql a b 2>err </dev/null; is $? 2 "two files exit 2"

rows2sql s.rp >out.sql 2>err; is $? 0 "complete stream converts"
is "$(r2s-check <out.sql)" "ok statements=$(r2s-check <out.sql | sed 's/.*statements=\([0-9]*\).*/\1/') bytes=$(($(wc -c <out.sql) - $(tail -1 out.sql | wc -c)))" "trailer counts bytes before it"
r2s-check <out.sql >/dev/null; is $? 0 "trailer statements, bytes and xxh3 verify"
is "$(grep '^INSERT INTO `t1`' out.sql | tr '\n' '~')" \
    "INSERT INTO \`t1\` (\`id\`,\`s\`,\`b\`,\`l\`,\`h\`) VALUES (1,'it\\'s \\\\ \\\"ok\\\"\\n\\r\\Z\\0',0x00FF5C27,_latin1 0xE9,7);~INSERT INTO \`t1\` (\`id\`,\`s\`,\`b\`,\`l\`,\`h\`) VALUES (2,NULL,NULL,'plain',NULL),(3,_utf8mb4 0xF09F9880C3,'',_latin1 0xC3,NULL);~" \
    "literals: escapes, hex blob, latin1 as hex, invalid UTF-8 as hex, generated omitted, invisible named"
like "$(grep -c '^INSERT INTO `t2` (`a`) VALUES (5);' out.sql)" '^1$' "interleaved tables each get their INSERT"
like "$(sed -n '/^DELIMITER \$\$/,/^DELIMITER ;/p' out.sql | head -1)" '^DELIMITER \$\$$' "a body holding ;; gets another delimiter"
like "$(cat out.sql)" "sql_mode='ANSI_QUOTES,NO_BACKSLASH_ESCAPES'" "routine sql_mode set around its CREATE"
like "$(cat out.sql)" "ALTER DATABASE \`d1\` COLLATE utf8mb4_unicode_ci" "routine's database collation set around it"
like "$(cat out.sql)" "DEFINER=\`u\`\`x\`@\`%\` PROCEDURE" "definer kept by default"
like "$(head -20 out.sql)" "SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES'" "header sets sql_mode"
like "$(tail -5 out.sql)" "SET SQL_NOTES=@OLD_SQL_NOTES" "footer restores the session"

rows2sql --skip-definer --skip-drop --no-create-db s.rp >nd.sql; is $? 0 "--skip-definer --skip-drop --no-create-db"
is "$(grep -c 'DEFINER=`' nd.sql)" 0 "no definers left"
like "$(grep 'VIEW `d1`.`v1`' nd.sql)" "^CREATE ALGORITHM=UNDEFINED SQL SECURITY DEFINER VIEW" "view keeps SQL SECURITY"
is "$(grep -c -e '^DROP ' -e '^CREATE DATABASE' nd.sql)" 0 "no DROP, no CREATE DATABASE"

rows2sql --rename-db d1=d2 --rename t1=n1 s.rp >rn.sql; is $? 0 "renames"
like "$(grep '^CREATE DATABASE' rn.sql)" '^CREATE DATABASE IF NOT EXISTS `d2` ' "database renamed"
like "$(grep -A1 '^DROP TABLE IF EXISTS `n1`' rn.sql)" 'CREATE TABLE `n1` \(' "table renamed in DROP and CREATE"
like "$(grep '^INSERT INTO `n1`' rn.sql)" '^INSERT INTO `n1` ' "table renamed in INSERT"
like "$(grep 'VIEW' rn.sql)" "VIEW \`d2\`.\`v1\` AS select \`d2\`.\`n1\`.\`id\` AS \`id\`, 'd1\`.' AS \`x\` from \`d2\`.\`n1\`" "view's qualified database and table renamed, literals untouched"
like "$(grep 'TRIGGER `tr1`' rn.sql)" 'BEFORE INSERT ON `n1` FOR EACH ROW' "trigger's table renamed"
# In the same database, a renamed table's trigger would be taken from the
# original (trigger names are per database): it is left out, with a warning.
rows2sql --rename t1=n1 s.rp >rn1.sql 2>rn1.err; is $? 0 "rename within a database"
is "$(grep -c 'TRIGGER' rn1.sql)" 0 "the renamed table's trigger is left out"
like "$(cat rn1.err)" "d1.tr1: trigger of renamed table t1 left out" "and a warning says so"

printf 'HEADER|producer=test\nOBJECT|view|d1|v2|CREATE VIEW `d1`.`v2` AS select `d9`.`t1`.`a` AS `a`, "`d9`.`t1`" AS `s` from `d9`.`t1` join `d1`.`t1`\nTRAILER\n' |
    gen | rows2sql --rename-db d9=d8 --rename t1=n1 >x.sql
like "$(grep 'VIEW' x.sql)" 'VIEW `d1`.`v2` AS select `d8`.`n1`.`a` AS `a`, "`d9`.`t1`" AS `s` from `d8`.`n1` join `d1`.`n1`;$' "other databases' qualifiers renamed too"

rows2sql --tables=t2 s.rp >tb.sql; is $? 0 "--tables"
is "$(grep -c -e '^INSERT INTO `t1`' -e 'TRIGGER' -e 'VIEW' -e PROCEDURE tb.sql)" 0 "other tables, their triggers, views and routines left out"
# A filter that matches nothing is a mistyped name: an error (issue 25),
# the text then has no trailer, so that it does not pass for a dump.
rows2sql --tables=nosuch s.rp >nm.sql 2>err
is "$? $(cat err)" "1 rows2sql: --tables nosuch matched no table of the stream" \
    "--tables that matches no table exits 1, naming it"
sqlsplit --require-trailer nm.sql >/dev/null 2>&1
is $? 1 "and its text does not pass for a complete dump"
rows2sql --tables=t2 --rename d1.nosuch=x s.rp >nm.sql 2>err
is "$? $(cat err)" "1 rows2sql: --rename d1.nosuch: no such table in the stream" \
    "--rename of no table exits 1"
rows2sql --rename-db nosuch=x s.rp >nm.sql 2>err
is "$? $(cat err)" "1 rows2sql: --rename-db nosuch: no such database in the stream" \
    "--rename-db of no database exits 1"
rows2sql --no-data s.rp >nodata.sql; is "$(grep -c '^INSERT' nodata.sql)" 0 "--no-data writes no rows"
rows2sql --no-create s.rp >nocreate.sql; is "$(grep -c -e '^CREATE TABLE' -e '^DROP' -e TRIGGER nocreate.sql)" 0 "--no-create writes no DDL"
rows2sql --insert=upsert s.rp | grep -q '^INSERT INTO `t1` .* ON DUPLICATE KEY UPDATE `s`=VALUES(`s`),`b`=VALUES(`b`),`l`=VALUES(`l`),`h`=VALUES(`h`);$'
is $? 0 "--insert=upsert updates every non-key column"

# Statement size: many rows, small limit.
{ echo 'HEADER|producer=test'; printf 'TABLE|1|d|bench|15\n'
  for c in id v t dt d tm de ti ts ch bn f db bl bo; do printf 'COLUMN|1|0|%s|253|0|45|0|x\n' $c; done
  echo 'GEN|1|5000'; echo 'TABLE_END|1|5000'; echo TRAILER; } | gen >big.rp
rows2sql --max-statement-size=4096 big.rp >small.sql; is $? 0 "many rows with --max-statement-size=4096"
is "$(awk '/^INSERT/ && length($0) > 4096' small.sql | wc -l)" 0 "no INSERT longer than 4096 bytes"
is "$(grep '^INSERT' small.sql | sed 's/),(/\n/g' | wc -l)" 5000 "every row written once"

# Bad input.
rows2sql </dev/null 2>err; is $? 1 "empty input exits 1"
like "$(cat err)" '^rows2sql: .*empty' "and says so"
echo 'SELECT 1;' | rows2sql 2>err; is $? 1 "SQL text exits 1"
head -c $(($(wc -c <s.rp) - 40)) s.rp | rows2sql >cut.sql 2>err; is $? 1 "truncated stream exits 1"
like "$(cat err)" 'truncated at byte [0-9]+' "error names the byte offset"
r2s-check <cut.sql >/dev/null 2>&1; is $? 1 "cut output has no trailer"
like "$(grep -v '^-- rowpipe-checkpoint ' cut.sql | tail -1)" ';$' \
    "cut output ends with a complete statement (and its checkpoint line)"
sqlsplit <out.sql >/dev/null; is $? 0 "sqlsplit accepts the complete text (and its trailer)"
sqlsplit --require-trailer <cut.sql >/dev/null 2>err; is $? 1 "sqlsplit --require-trailer reports the cut text"
sed 's/plain/plaiN/' out.sql | sqlsplit >/dev/null 2>err; is $? 1 "sqlsplit notices a changed byte"
sed 's/$/\r/' out.sql | sqlsplit >/dev/null 2>err; is $? 1 "sqlsplit refuses the text with CRLF line endings"
like "$(cat err)" 'line endings were converted to CRLF' "and says that is what happened to it"
cp s.rp bad.rp; printf '\377' | dd of=bad.rp bs=1 seek=700 conv=notrunc 2>/dev/null
rows2sql bad.rp >/dev/null 2>err; is $? 1 "corrupt stream exits 1"
like "$(cat err)" '^rows2sql: corrupt: .*byte [0-9]+' "corruption named with its offset"
printf 'HEADER|producer=test\nSTMT|SELECT 1\nTRAILER\n' | gen | rows2sql >stmt.sql 2>err
is $? 1 "a statement stream exits 1"
like "$(cat err)" 'statement stream' "and says what it is"
is "$(wc -l <stmt.sql | tr -d ' ') $(cut -c1-25 stmt.sql | head -1) $(sed -n 2p stmt.sql | cut -c1-23)" \
    "2 -- rowpipe-abort reason=3 SIGNAL SQLSTATE '45000'" \
    "and writes no SQL for it, not even the session preamble: its abort line and the SIGNAL after it only"
if [ -w /dev/full ]; then
	rows2sql s.rp >/dev/full 2>err; is $? 1 "write error exits 1"
	like "$(cat err)" '^rows2sql: stdout: write: ' "and says so"
fi

done_testing
