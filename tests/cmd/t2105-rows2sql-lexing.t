#!/bin/sh
# rows2sql reads the SQL it rewrites with MariaDB's lexical rules
# (lib/sqltok): a delimiter goes on a line of its own only after a real
# end-of-line comment, lexed in the object's sql_mode; names are renamed
# in executable comments but not in literals or comments; a database's
# collation is its COLLATE clause, not words in its comment.  No server.
. "$(dirname "$0")/../lib.sh"

gen() { tr '|' '\t' | r2s-gen; }
ctx='character_set_client=utf8mb4 collation_connection=utf8mb4_general_ci'

cat >in.txt <<X
HEADER|producer=test
OBJECT|database|d1|d1|CREATE DATABASE \`d1\` /*!40100 DEFAULT CHARACTER SET latin1 COLLATE latin1_bin */ COMMENT 'COLLATE utf8mb4_bin'
OBJECT|view|d1|v1|CREATE VIEW \`d1\`.\`v1\` AS select '#' AS \`a\`, '--' AS \`b\`|$ctx sql_mode=
OBJECT|view|d1|v2|CREATE VIEW \`d1\`.\`v2\` AS select 1 AS \`a\` -- the end|$ctx sql_mode=
OBJECT|procedure|d1|p1|CREATE PROCEDURE \`p1\`()\nSELECT 'a\\\\' # not a comment'|$ctx sql_mode=
OBJECT|procedure|d1|p2|CREATE PROCEDURE \`p2\`()\nSELECT 'a\\\\' # a comment'|$ctx sql_mode=NO_BACKSLASH_ESCAPES
OBJECT|procedure|d1|p3|CREATE PROCEDURE \`p3\`()\nSELECT \`d1\`.\`t1\`.\`x\`, '\`d1\`.\`t1\`' /* \`d1\`.\`t1\` */ /*!50001 , \`d1\`.\`t1\`.\`y\` */ FROM \`d1\`.\`t1\`|$ctx sql_mode= collation_database=utf8mb4_general_ci
TRAILER
X
gen <in.txt >s.rp
rows2sql s.rp >out.sql; is $? 0 "converts"
like "$(grep -A1 "VIEW \`d1\`.\`v1\`" out.sql | head -1)" "AS \`b\`;\$" \
    "comment marks inside literals: the delimiter stays on the line"
is "$(grep -A1 "VIEW \`d1\`.\`v2\`" out.sql | tr '\n' '~')" \
    "CREATE VIEW \`d1\`.\`v2\` AS select 1 AS \`a\` -- the end~;~" \
    "after a real -- comment, the delimiter goes on a line of its own"
is "$(grep -F -A1 "# not a comment" out.sql | tr '\n' '~')" \
    "SELECT 'a\\' # not a comment';;~DELIMITER ;~" \
    "with backslash escapes, # inside the string is no comment"
is "$(grep -F -A1 "# a comment" out.sql | tr '\n' '~')" \
    "SELECT 'a\\' # a comment'~;;~" \
    "under NO_BACKSLASH_ESCAPES the string ends before #: a comment"
is "$(sqlsplit --list <out.sql | cut -f4 | grep create- | sort | uniq -c |
    tr -s ' ' | tr '\n' '~')" " 1 create-database~ 3 create-routine~ 2 create-view~" \
    "sqlsplit cuts every definition whole"

rows2sql --rename-db d1=d2 --rename t1=n1 s.rp >rn.sql; is $? 0 "renames"
is "$(grep '^SELECT `d' rn.sql)" \
    "SELECT \`d2\`.\`n1\`.\`x\`, '\`d1\`.\`t1\`' /* \`d1\`.\`t1\` */ /*!50001 , \`d2\`.\`n1\`.\`y\` */ FROM \`d2\`.\`n1\`;;" \
    "renamed in code and executable comments, not in literals or comments"
like "$(cat out.sql)" "ALTER DATABASE \`d1\` COLLATE utf8mb4_general_ci \*/;" \
    "the database's collation is its COLLATE clause (latin1_bin), so p3's differs"
like "$(cat out.sql)" "ALTER DATABASE \`d1\` COLLATE latin1_bin \*/;" \
    "and is put back after p3"
done_testing
