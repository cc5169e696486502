#!/bin/sh
# The statement frame carries the lexer mode sqlsplit cut each statement
# in (the script's SET sql_mode: NO_BACKSLASH_ESCAPES, ANSI_QUOTES), and
# whether a SET is the session's (kind set) or more (kind set-server):
# sqlexec lexes what sqlsplit lexed and runs a session SET on every
# connection, a server-wide one once (issue #23's last bullet).
#
# The script's INSERTs read a user variable only where the mode says so:
# lexed with the default mode, 'a\' (NO_BACKSLASH_ESCAPES) or "k\"
# (ANSI_QUOTES) would run on to a quote in a comment and hide the @n
# after it, and the INSERT would go into a unit on any connection.
# Compared with the mysql client value by value, at -j 1, 2 and 4.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
a=t4242_a b=t4242_b

# (awk's "\\" is one backslash)
awk 'BEGIN {
	print "CREATE TABLE u (id INT, v VARCHAR(20));"
	print "SET @n := 0, FOREIGN_KEY_CHECKS = 0;"
	print "INSERT INTO u VALUES (-1, '\''c\\'\''d'\'');"
	print "SET sql_mode = '\''NO_BACKSLASH_ESCAPES'\'';"
	for (i = 1; i <= 20; i++) {
		print "INSERT INTO u (v, id) VALUES ('\''a\\'\'', @n := @n + 1 /* '\'' */);"
		printf "INSERT INTO u VALUES (%d, '\''C:\\'\''), (%d, '\''D:\\'\'');\n",
		    i + 1000, i + 2000
	}
	print "SET sql_mode = '\''ANSI_QUOTES'\'';"
	print "CREATE TABLE w (\"k\\\" INT, v INT);"
	for (i = 1; i <= 20; i++)
		printf "INSERT INTO w (\"k\\\", v) VALUES (@n := @n + 1 /* \" */, %d);\n", i
	print "SET sql_mode = DEFAULT;"
	print "INSERT INTO u VALUES (-2, '\''e\\'\''f'\'');"
}' >m.sql

# what sqlsplit wrote: each statement's mode, SET kinds
sqlsplit m.sql | framecat >m.txt
is "$(grep -c '	mode=1$' m.txt) $(grep -c '	mode=2$' m.txt)" "41 22" \
    "each statement frame carries the mode it was cut in"
is "$(grep -c '^STMT.*	mode=' m.txt)" 63 "and a statement in the default mode none"

fresh_db $a
sql --force -vvv $a <m.sql >ref.out 2>ref.err
is "$(cat ref.err)" "" "the client runs the script"
db_hex $a >a.hex
want=$(client_counts ref.out ref.err)
for j in 1 2 4; do
	for ce in "" "--commit-every 1"; do
		fresh_db $b
		sqlsplit m.sql | sqlexec $C -j $j $ce $b 2>err
		is $? 0 "-j $j $ce: exit 0"
		db_hex $b >b.hex
		is_file b.hex a.hex "-j $j $ce: HEX() of every row as the client's"
		is "$(sqlexec_counts err)" "$want" "-j $j $ce: warnings and failures"
	done
done
# the mode makes 'C:\' a literal (even lines: parallel), 'a\' before @n
# not one (odd lines: ordered), where the default mode says the opposite
sqlsplit m.sql | sqlexec -n -j 2 >plan 2>/dev/null
par=$(sed -n 's/.*(line \([0-9]*\), table u): insert: parallel$/\1/p' plan)
is "$(printf '%s\n' $par | awk '$1 % 2 { o++ } !($1 % 2) { e++ }
    END { print o + 0, e + 0 }')" "1 21" \
    "the plan: 'C:\\' under NO_BACKSLASH_ESCAPES parallel, 'a\\', @n ordered"

# Session or server-wide SET: one rule, decided by sqlsplit.
cat >set.sql <<'EOF2'
SET GLOBAL t4242_nosuch = 1;
SET @@GLOBAL.t4242_nosuch = 1;
SET PASSWORD FOR t4242_nosuch@localhost = PASSWORD('x');
SET DEFAULT ROLE t4242_r FOR t4242_nosuch@localhost;
SET ROLE NONE;
SET NAMES utf8mb4;
SET @a = @@GLOBAL.max_connections;
SET STATEMENT max_statement_time = 10 FOR INSERT INTO u VALUES (7, 'x');
INSERT INTO u VALUES (8, 'y');
EOF2
is "$(sqlsplit --list set.sql | cut -f4 | tr '\n' ' ')" \
    "set-server set-server set-server set-server set set set other insert " \
    "sqlsplit: kinds set-server, set (ROLE too), other (SET STATEMENT)"
is "$(sqlsplit --list --grep-table u set.sql | cut -f2 | tr '\n' ' ')" \
    "5 6 7 9 " "--grep-table keeps the session's SETs, SET ROLE among them"
fresh_db $b
sql $b -e "CREATE TABLE u (id INT PRIMARY KEY, v VARCHAR(20))"
printf 'SET @k = 1;\nSET STATEMENT max_statement_time = 10 FOR INSERT INTO u VALUES (7, 0);\n' |
    sqlsplit | sqlexec $C -j 2 $b 2>err
is "$? $(sql $b -e 'SELECT COUNT(*) FROM u')" "0 1" \
    "SET STATEMENT ... FOR INSERT at -j 2 runs once, not on every connection"

# SET ROLE runs on every connection: the role's grants reach the rows of
# units on connection 2 (the account has none of its own).
sql -e "DROP USER IF EXISTS t4242_u@localhost; DROP ROLE IF EXISTS t4242_r;
    CREATE ROLE t4242_r; GRANT ALL ON \`$b\`.* TO t4242_r;
    CREATE USER t4242_u@localhost IDENTIFIED BY 't4242pw';
    GRANT t4242_r TO t4242_u@localhost"
fresh_db $b
sql $b -e "CREATE TABLE r (id INT PRIMARY KEY)"
{ echo "SET ROLE t4242_r;"; echo "USE $b;"; seq 40 | sed 's/.*/INSERT INTO r VALUES (&);/'; } >role.sql
sqlsplit role.sql | MYSQL_PWD=t4242pw sqlexec --no-defaults -ut4242_u \
    -S "$RP_SOCK" -j 2 --commit-every 1 2>err
is "$? $(sql $b -e 'SELECT COUNT(*) FROM r')" "0 40" \
    "SET ROLE then 40 units at -j 2: every row, as the client"
sqlsplit role.sql | sqlexec -n -j 2 >plan 2>/dev/null
like "$(head -1 plan)" ': set: session' "SET ROLE is a session statement"

# A frame of an older producer (no mode): kind set decided by the rule.
printf 'SET GLOBAL t4242_nosuch = 1;\nSET @x = 1;\n' | sqlsplit |
    rows2json | sed 's/,"lex_mode":0//; s/"set-server"/"set"/' | json2rows | sqlexec -n -j 2 >plan 2>&1
is "$(grep -c ': set: barrier' plan) $(grep -c ': set: session' plan)" "1 1" \
    "an older frame's SET GLOBAL is still a barrier, SET @x session"

# Frames of an older producer (no mode) under a script's own
# NO_BACKSLASH_ESCAPES: lexed here with backslash escapes, 'x\' would hide
# the @r after it from the order rule; the SET of sql_mode makes the run
# serial, so every row is the client's.
{
	echo "SET sql_mode = 'NO_BACKSLASH_ESCAPES';"
	echo "CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(9));"
	echo "CREATE TABLE b (n INT PRIMARY KEY, v VARCHAR(9), r INT);"
	seq 300 | awk '{ printf "INSERT INTO a (v) VALUES (%cC:\\%d%c);\n", 39, $1, 39
	    print "SET @r = LAST_INSERT_ID();"
	    printf "INSERT INTO b VALUES (%d, %cx\\%c, @r) /* %c */;\n", $1, 39, 39, 39 }'
} >old.sql
fresh_db $a
sql $a <old.sql
db_hex $a >a.hex
sqlsplit old.sql | rows2json | sed 's/,"lex_mode":[0-9]*//' | json2rows >old.rp
fresh_db $b
sqlexec $C -j 2 $b <old.rp 2>err
is "$?" 0 "older frames under NO_BACKSLASH_ESCAPES at -j 2: exit 0"
like "$(cat err)" "a SET of sql_mode in a stream without lexer modes .*: from here on one connection" \
    "... the SET of sql_mode makes the run serial"
db_hex $b >b.hex
is_file b.hex a.hex "... and every row is the client's"

sql -e "DROP USER t4242_u@localhost; DROP ROLE t4242_r;
    DROP DATABASE $a; DROP DATABASE $b"
done_testing
