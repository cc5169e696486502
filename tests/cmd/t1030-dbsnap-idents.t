#!/bin/sh
# dbsnap: identifiers with backticks, quotes, spaces, newlines, trailing
# backslashes, unicode and reserved words, in database, table, column,
# view and trigger names, chunked and not.
. "$(dirname "$0")/../lib.sh"
need_server
DB='t1030 `db` "q'\''s" ü'
sql -e "DROP DATABASE IF EXISTS \`t1030 \`\`db\`\` \"q's\" ü\`"
sql <<'SQL' || exit 1
SET NAMES utf8mb4;
CREATE DATABASE `t1030 ``db`` "q's" ü`;
USE `t1030 ``db`` "q's" ü`;
CREATE TABLE `select` (`from` int PRIMARY KEY, `a``b` varchar(10),
  `new
line` int, `back\` int, `ünï ☃` text, `'"` int) ;
INSERT INTO `select` VALUES (1, 'x', 2, 3, 'ü', 4), (2, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE `tab	le ``x``` (`k ``1` varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
  `k2` int, v int, PRIMARY KEY (`k ``1`, k2));
INSERT INTO `tab	le ``x``` SELECT concat('k', seq), seq % 3, seq FROM seq_1_to_500;
CREATE VIEW `v ``1` AS SELECT `from`, `a``b` FROM `select`;
CREATE TRIGGER `tr ``g` BEFORE INSERT ON `select` FOR EACH ROW SET NEW.`a``b` = 'trg';
SQL

plan 8
dbsnap $(CONN) --chunk-rows 64 "$DB" > out.rp 2>err.txt
is "$?" 0 "dbsnap exits 0"
framecat < out.rp > out.txt
is "$?" 0 "the stream is complete"
is "$(grep '^TABLE	' out.txt | cut -f3,4 | sort)" \
"t1030 \`db\` \"q's\" ü	select
t1030 \`db\` \"q's\" ü	tab\\tle \`x\`" "schema and table names exact"
sid=$(awk -F'\t' '$1 == "TABLE" && $4 == "select" { print $2 }' out.txt)
is "$(grep "^COLUMN	$sid	" out.txt | cut -f4 | tr '\n' '|')" \
    "from|a\`b|new\\nline|back\\\\|ünï ☃|'\"|" "column names exact"
like "$(grep -c '^OBJECT	view	' out.txt) $(grep -c '^OBJECT	trigger	' out.txt)" \
    "^1 1$" "view and trigger"
is "$(grep '^TABLE_END' out.txt | cut -f3 | sort -n | tr '\n' ' ')" "2 500 " \
    "all rows, the 500 through keyset chunks of 64"
DST=t1030_dst
sql -e "DROP DATABASE IF EXISTS $DST"
rows2sql --rename-db="$DB=$DST" < out.rp | sql 2>restore.err
cks() {
	sql -e "SET NAMES utf8mb4; CHECKSUM TABLE $1.\`select\`, $1.\`tab	le \`\`x\`\`\` EXTENDED" |
	    awk -F'\t' '{ print $NF }' | tr '\n' ' '
}
got=$(cks $DST)
is "$got" "$(cks "\`t1030 \`\`db\`\` \"q's\" ü\`")" "dbsnap | rows2sql restores the same rows"
like "$got" "^[0-9]+ [0-9]+ $" "both tables restored"
sql -e "DROP DATABASE \`t1030 \`\`db\`\` \"q's\" ü\`; DROP DATABASE IF EXISTS $DST"
done_testing
