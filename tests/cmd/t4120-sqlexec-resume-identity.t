#!/bin/sh
# sqlexec: the resume point carries the input's identity (N:IDENTITY, a
# running hash of statements 1..N), and --skip-to refuses an input whose
# statements 1..N differ, before it runs anything after N.  Issue 15 item
# 2: a copy cut part way was resumed with a fresh dump of a source that
# had changed meanwhile, and exited 0 with rows missing.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

# The source: 3000 rows; a dump of it as a statement stream (many small
# INSERTs, so that a cut lands in the middle of the table).
sql -e "DROP DATABASE IF EXISTS t4120_src; CREATE DATABASE t4120_src;
    USE t4120_src; CREATE TABLE o (id INT PRIMARY KEY, v VARCHAR(20));
    INSERT INTO o SELECT seq, CONCAT('v', seq) FROM seq_1_to_3000"
dump() {
	dbsnap $C t4120_src | rows2sql --rename-db t4120_src=t4120_dst \
	    --max-statement-size=2K | sqlsplit
}
dump >a.rp
sum_src=$(sql -e "CHECKSUM TABLE t4120_src.o" | cut -f2)

# A copy cut part way: sqlexec prints the resume point with the identity.
head -c $(($(wc -c <a.rp) / 2)) a.rp | sqlexec $C -j 2 --commit-every 4K 2>err
is $? 1 "a cut copy: exit 1"
token=$(sed -n 's/^sqlexec: statements 1-\([0-9]*\) are committed; resume with --skip-to \(\1:[0-9a-f]\{16\}\)$/\2/p' err)
like "$token" '^[0-9]+:[0-9a-f]{16}$' "the resume point is N:IDENTITY ($token)"
n=${token%%:*}
before=$(sql -e "SELECT COUNT(*), SUM(id) FROM t4120_dst.o")

# The source changes (rows deleted near the start), a fresh dump: refused.
sql -e "DELETE FROM t4120_src.o WHERE id BETWEEN 10 AND 200"
dump >b.rp
sqlexec $C -j 2 --commit-every 4K --skip-to "$token" <b.rp 2>err
is $? 1 "--skip-to with a different input: exit 1"
like "$(head -1 err)" "^sqlexec: --skip-to $token: this input is not the one the resume point was made from: its statements 1-$n differ; resume only with the same input$" \
    "--skip-to with a different input: the reason"
ok $(! grep -q 'resume with' err; echo $?) "and no resume point to follow"
is "$(sql -e "SELECT COUNT(*), SUM(id) FROM t4120_dst.o")" "$before" \
    "nothing after statement $n ran"

# The same input: resumed, complete, identical to the source as dumped.
sqlexec $C -j 2 --commit-every 4K --skip-to "$token" <a.rp 2>err
is $? 0 "--skip-to with the same input: exit 0"
is "$(sql -e "CHECKSUM TABLE t4120_dst.o" | cut -f2)" "$sum_src" \
    "the resumed copy equals the source it was dumped from"

# An input that ends before statement N: refused.
printf 'SELECT 1;\n' | sqlsplit >short.rp
sqlexec $C --skip-to "$token" <short.rp 2>err
is $? 1 "an input shorter than N: exit 1"
like "$(head -1 err)" "^sqlexec: --skip-to $token: the input ends at statement 1: it is not the input the resume point was made from$" \
    "an input shorter than N: the reason"

# Only N: accepted, with a warning that nothing is checked.
sql -e "DROP DATABASE t4120_dst"
sqlexec $C --skip-to 3 <a.rp 2>err
like "$(head -1 err)" "^sqlexec: warning: --skip-to 3 without the input's identity \\(N:IDENTITY, as the resume line prints it\\): not checked that this is the same input$" \
    "--skip-to N: a warning"

# Malformed: a usage error, before connecting.
for bad in x 12: 12:abc 12:0123456789abcdefg -3 12x; do
	sqlexec $C --skip-to "$bad" <a.rp 2>err
	is $? 2 "--skip-to $bad: exit 2"
done
like "$(cat err)" "^sqlexec: --skip-to 12x: expected N or N:IDENTITY" \
    "--skip-to 12x: the reason"
for bad in +12 " 12" 0x12 12:0x23456789abcdef 99999999999999999999 \
    "12:0123456789abcdef "; do
	sqlexec $C --skip-to "$bad" <a.rp 2>err
	is $? 2 "--skip-to '$bad': exit 2"
done
# 0 with an identity: no resume line names 0 (nothing committed), and
# there would be nothing to check it against.
sql -e "DROP DATABASE IF EXISTS t4120_dst"
sqlexec $C --skip-to 0:0123456789abcdef <a.rp 2>err
is $? 2 "--skip-to 0:IDENTITY: exit 2"
like "$(cat err)" "^sqlexec: --skip-to 0:0123456789abcdef: 0 statements are committed at 0: there is nothing to skip .*run the input without --skip-to$" \
    "--skip-to 0:IDENTITY: the reason"
is "$(sql -e "SHOW DATABASES LIKE 't4120_dst'")" "" \
    "--skip-to 0:IDENTITY: nothing ran"

# A snapshot stream (dbsnap's frames, loaded by sqlexec itself): the
# identity is seeded by the header (producer, snapshot time, binary log
# position) and covers frames 1..N.  The stream names its database, so the
# target is the source's own name: the cut load replaces the source.
sql -e "DROP DATABASE IF EXISTS t4120_sn; CREATE DATABASE t4120_sn;
    USE t4120_sn; CREATE TABLE o (id INT PRIMARY KEY, v VARCHAR(20));
    INSERT INTO o SELECT seq, CONCAT('value ', seq) FROM seq_1_to_60000"
sum_a=$(sql -e "CHECKSUM TABLE t4120_sn.o" | cut -f2)
dbsnap $C t4120_sn >sa.rp
sql -e "DELETE FROM t4120_sn.o WHERE id % 7 = 0"
dbsnap $C t4120_sn >sb.rp
head -c $(($(wc -c <sa.rp) * 2 / 3)) sa.rp | sqlexec $C -j 2 --commit-every 1 2>err
is $? 1 "a cut snapshot stream: exit 1"
token=$(sed -n 's/^sqlexec: frames 1-[0-9]* are committed.*; resume with --skip-to \(f[0-9,=]*:[0-9a-f]\{16\}\)$/\1/p' err)
like "$token" '^f[0-9]+(,[0-9]+=[0-9]+)*:[0-9a-f]{16}$' "snapshot: the resume point is fN[,TABLE=MARK...]:IDENTITY ($token)"
# the last frame it names: N, or a table's mark after it
top=$(echo "$token" | sed 's/^f//; s/:.*//' | tr ',=' '  ' |
    awk '{ m = $1; for (i = 3; i <= NF; i += 2) if ($i + 0 > m) m = $i; print m }')
before=$(sql -e "SELECT COUNT(*), SUM(id) FROM t4120_sn.o")
sqlexec $C -j 2 --commit-every 1 --skip-to "$token" <sb.rp 2>err
is $? 1 "snapshot: --skip-to with another snapshot: exit 1"
like "$(head -1 err)" "^sqlexec: --skip-to $token: this input is not the one the resume point was made from: its frames 1-$top differ" \
    "snapshot: another snapshot is refused"
is "$(sql -e "SELECT COUNT(*), SUM(id) FROM t4120_sn.o")" "$before" \
    "snapshot: nothing of it ran"
sqlexec $C -j 2 --commit-every 1 --skip-to "$token" <sa.rp 2>err
is $? 0 "snapshot: --skip-to with the same stream: exit 0"
is "$(sql -e "CHECKSUM TABLE t4120_sn.o" | cut -f2)" "$sum_a" \
    "snapshot: the resumed load equals the snapshot"

# Into an empty target (issue 25 F7): the point of another snapshot is
# refused as such, not by the SHOW CREATE TABLE of a table the point skips
# (that error came first); the same snapshot says why it cannot go on.
sql -e "DROP DATABASE t4120_sn"
sqlexec $C -j 2 --skip-to "$token" <sb.rp 2>err
is "$? $(head -1 err)" "1 sqlexec: --skip-to $token: this input is not the one the resume point was made from: its frames 1-$top differ; resume only with the same input" \
    "snapshot, empty target: another snapshot is refused as such"
sqlexec $C -j 2 --skip-to "$token" <sa.rp 2>err
like "$?  $(head -1 err)" "^1  sqlexec: frame [0-9]+ at offset [0-9]+: t4120_sn.o: SHOW CREATE TABLE: Table 't4120_sn.o' doesn't exist \\(the resume point is past its creation: resume into the target the run loaded\\)$" \
    "snapshot, empty target: the same snapshot: the table the point skips is missing"
is "$(sql -e "SHOW DATABASES LIKE 't4120_sn'")" "" "snapshot, empty target: nothing ran"

# The same for a statement stream: the USE it runs again before the point
# fails in an empty target; another input's point is refused as such.
printf 'CREATE DATABASE IF NOT EXISTS t4120_u;\nUSE t4120_u;\nCREATE TABLE t (id INT);\nINSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);\n' >ua.sql
sed 's/(id INT)/(id BIGINT)/' ua.sql >ub.sql
sql -e "DROP DATABASE IF EXISTS t4120_u"
head -c 110 ua.sql | sqlsplit 2>/dev/null | sqlexec $C 2>err
utok=$(sed -n 's/^sqlexec: statements 1-[0-9]* are committed; resume with --skip-to \([0-9]*:[0-9a-f]*\)$/\1/p' err)
like "$utok" '^4:[0-9a-f]{16}$' "statements: a cut run's point ($utok)"
sql -e "DROP DATABASE t4120_u"
sqlsplit <ub.sql | sqlexec $C --skip-to "$utok" 2>err
is "$? $(head -1 err)" "1 sqlexec: --skip-to $utok: this input is not the one the resume point was made from: its statements 1-4 differ; resume only with the same input" \
    "statements, empty target: another input is refused as such (not by its USE)"
sqlsplit <ua.sql | sqlexec $C --skip-to "$utok" 2>err
is "$? $(head -1 err)" "1 sqlexec: statement 2 (line 2): ERROR 1049 (42000): Unknown database 't4120_u'" \
    "statements, empty target: the same input: the USE's error"
is "$(sql -e "SHOW DATABASES LIKE 't4120_u'")" "" "statements, empty target: nothing ran"

# A resumed run that fails before it commits anything after the resume
# point prints no new resume point (a bare N has no identity to print):
# it says to run the same command again.
sql -e "DROP DATABASE IF EXISTS t4120_re; CREATE DATABASE t4120_re;
    CREATE TABLE t4120_re.a (id INT)"
printf 'INSERT INTO a VALUES (1);\nINSERT INTO a VALUES (2);\nINSERT INTO nosuch VALUES (3);\nINSERT INTO a VALUES (4);\n' |
    sqlsplit >re.rp
sqlexec $(CONN) --skip-to 2 t4120_re <re.rp 2>err
is $? 1 "a resumed run that fails at once: exit 1"
like "$(tail -1 err)" "^sqlexec: nothing after the resume point is committed: run the same command again \\(--skip-to 2\\) once the cause is fixed$" \
    "... says to run the same command again"
grep -q 'resume with --skip-to 2:0000000000000000' err
isnt $? 0 "... and prints no resume point it never computed"

sql -e "DROP DATABASE t4120_src; DROP DATABASE IF EXISTS t4120_dst;
    DROP DATABASE IF EXISTS t4120_sn; DROP DATABASE t4120_re"
done_testing
