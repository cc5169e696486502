#!/bin/sh
# Sequences and what depends on them, restored into a server without the
# source databases (rows2sql | mariadb, and sqlexec's snapshot path):
#  - a table whose DEFAULT calls NEXTVAL of a sequence that sorts after
#    it, in its own database and in another one dumped after it: objects
#    come in the order they depend on (every sequence before any table),
#    not by name (it was ERROR 1146);
#  - rows2sql --rename-db and sqlexec --rename-db rename the database in
#    DEFAULT NEXTVAL(`old`.`s`) as well (the copy drew from the source's
#    sequence), and leave a literal that looks like it, a CHECK and a
#    generated column alone;
#  - a cycled sequence keeps its round (cycle_count): SETVAL(s, n, 0, round).
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
A=t1094_a B=t1094_b N=t1094_n

make_src() {
	sql -e "DROP DATABASE IF EXISTS $A; DROP DATABASE IF EXISTS $B;
	    DROP DATABASE IF EXISTS $N; CREATE DATABASE $A; CREATE DATABASE $B"
	sql $B -e "CREATE SEQUENCE s START WITH 7 NOCACHE" &&
	sql $A -e "CREATE SEQUENCE z_seq START WITH 100 NOCACHE;
	    CREATE TABLE a_t (id INT PRIMARY KEY DEFAULT NEXTVAL(z_seq),
	        far INT DEFAULT NEXTVAL($B.s),
	        v INT CHECK (v IS NULL OR v > 0),
	        g INT AS (id * 2) VIRTUAL,
	        note VARCHAR(40) DEFAULT '$A.z_seq');
	    CREATE SEQUENCE cyc MAXVALUE 2 CYCLE NOCACHE;
	    DO NEXTVAL(cyc), NEXTVAL(cyc), NEXTVAL(cyc)" &&
	sql $A -e "INSERT INTO a_t (v) VALUES (1), (2), (3)"
}
# state: what a later insert and NEXTVAL give, and the cycled sequence
state() {
	sql -e "INSERT INTO $1.a_t (v) VALUES (9);
	    SELECT id, far, note FROM $1.a_t ORDER BY id DESC LIMIT 1;
	    SELECT next_not_cached_value, cycle_count FROM $1.cyc;
	    SELECT NEXTVAL($1.cyc), NEXTVAL($1.cyc), NEXTVAL($1.cyc)" | tr '\n\t' '  '
}

make_src || exit 1
dbsnap $C -B $A $B >s.rp 2>err
is "$?" 0 "dbsnap -B a b"
is "$(framecat <s.rp | awk -F'\t' '$1 == "OBJECT" { printf "%s:%s ", $2, $4 }')" \
    "database:$A sequence:cyc sequence:z_seq database:$B sequence:s table:a_t " \
    "the sequences (of every database) before the tables"
like "$(framecat <s.rp | grep '^OBJECT	sequence	.*	cyc	')" "round=1" \
    "the cycled sequence carries its round"
want=$(state $A)

# rows2sql | mariadb, into a server without the databases
make_src
rows2sql <s.rp >s.sql
sql -e "DROP DATABASE $A; DROP DATABASE $B"
sql <s.sql 2>err
is "$?" 0 "rows2sql | mariadb restores without the source databases"
cut -c1-200 err | sed 's/^/# /'
is "$(state $A)" "$want" "rows2sql: the same ids from the sequences, the same round"

# sqlexec's snapshot path, likewise
sql -e "DROP DATABASE $A; DROP DATABASE $B"
sqlexec $C <s.rp 2>err
is "$?" 0 "sqlexec restores the stream without the source databases"
grep -v '^sqlexec: [0-9]* tables*,' err | cut -c1-200 | sed 's/^/# /'
is "$(state $A)" "$want" "sqlexec: the same ids from the sequences, the same round"

# --rename-db: the copy's DEFAULT draws from the copy's sequence
for how in rows2sql sqlexec; do
	make_src
	sql -e "DROP DATABASE IF EXISTS $N"
	if [ $how = rows2sql ]; then
		rows2sql --rename-db $A=$N <s.rp | sql 2>err
	else
		sqlexec $C --rename-db $A=$N <s.rp 2>err
	fi
	is "$?" 0 "$how --rename-db: restores"
	grep -v '^sqlexec: [0-9]* tables*,' err | cut -c1-200 | sed 's/^/# /'
	ddl=$(sql -e "SHOW CREATE TABLE $N.a_t" | cut -f2)
	like "$ddl" "DEFAULT nextval\(\`$N\`\.\`z_seq\`\)" \
	    "$how --rename-db: the DEFAULT names the new database's sequence"
	like "$ddl" "DEFAULT nextval\(\`$B\`\.\`s\`\)" \
	    "$how --rename-db: a database not renamed stays"
	is "$(printf "%s\n" "$ddl" | sed "s/$N/$A/g")" \
	    "$(sql -e "SHOW CREATE TABLE $A.a_t" | cut -f2)" \
	    "$how --rename-db: the rest as it was (a literal, CHECK, generated column)"
	like "$ddl" "DEFAULT '$A\.z_seq'" "$how --rename-db: the literal not renamed"
	before=$(sql -e "SELECT next_not_cached_value FROM $A.z_seq")
	is "$(state $N | cut -d' ' -f1)" 103 \
	    "$how --rename-db: the copy's next id comes from its own sequence"
	is "$(sql -e "SELECT next_not_cached_value FROM $A.z_seq")" "$before" \
	    "$how --rename-db: the source's sequence is not touched"
done

sql -e "DROP DATABASE IF EXISTS $A; DROP DATABASE IF EXISTS $B;
    DROP DATABASE IF EXISTS $N"
done_testing
