#!/bin/sh
# rowmap --rename of a table with foreign keys, into its own database
# (issue 25): foreign key names belong to the database, so a copy that
# kept them failed in sqlexec with ERROR 1005 (errno 121 "Duplicate key
# on write or update").  rowmap renames them by the rule rows2sql
# --rename follows (t2107), from the one place in lib/names: InnoDB's
# `old_ibfk_N` becomes `new_ibfk_N`, any other name gets "new_" before
# it; a name that would be too long is an error before the table goes out.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t7300

fresh_db $db
sql $db <<'SQL' || exit 1
CREATE TABLE tree (id INT PRIMARY KEY, up INT, FOREIGN KEY (up) REFERENCES tree (id));
INSERT INTO tree VALUES (1, NULL), (2, 1);
CREATE TABLE parent (id INT PRIMARY KEY);
INSERT INTO parent VALUES (1), (2);
CREATE TABLE child (id INT PRIMARY KEY, p INT, q INT,
    CONSTRAINT fk_child_parent FOREIGN KEY (p) REFERENCES parent (id),
    FOREIGN KEY (q) REFERENCES parent (id), CONSTRAINT ck_q CHECK (q > 0));
INSERT INTO child VALUES (1, 1, 2), (2, 2, 1);
SQL
fks() {
	sql -e "SELECT CONSTRAINT_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS
	    WHERE CONSTRAINT_SCHEMA = '${2:-$db}' AND TABLE_NAME = '$1' ORDER BY 1" |
	    tr '\n' ' '
}
dbsnap $C $db >s.rp || exit 1

rowmap --tables $db.child --rename child=child_copy <s.rp >copy.rp
is $? 0 "rowmap --rename child=child_copy"
sqlexec $C <copy.rp 2>err
is "$? $(grep -v ' rows, ' err)" "0 " \
    "the copy loads beside the original (before: ERROR 1005, errno 121)"
is "$(fks child_copy)" "child_copy_fk_child_parent child_copy_ibfk_1 " \
    "with its own foreign keys, named as rows2sql --rename names them"
rows2sql --tables child --rename child=child_copy <s.rp |
    grep -o 'CONSTRAINT `[^`]*` FOREIGN' | sort >r2s.names
rows2sql <copy.rp | grep -o 'CONSTRAINT `[^`]*` FOREIGN' | sort >rm.names
is_file rm.names r2s.names "the same names as rows2sql --rename gives"
like "$(rows2sql <copy.rp | grep -c 'CONSTRAINT `ck_q` CHECK')" "^1$" \
    "its CHECK keeps its name (a table's, not the database's)"
is "$(fks child)" "child_ibfk_1 fk_child_parent " "the original keeps its own"
sql $db -e "INSERT INTO child_copy VALUES (3, 9, 1)" 2>/dev/null
isnt $? 0 "the copy's foreign key is enforced"

# a self-reference: the copy references itself, under its own key name
rowmap --tables $db.tree --rename tree=tree_copy <s.rp | sqlexec $C 2>err
is "$? $(fks tree_copy)" "0 tree_copy_ibfk_1 " "a self-referencing table's copy"
is "$(sql -e "SELECT REFERENCED_TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS
    WHERE CONSTRAINT_SCHEMA = '$db' AND TABLE_NAME = 'tree_copy'")" tree_copy \
    "... references the copy"

# moved to another database: the names are free there, kept
fresh_db ${db}_b
rowmap --tables $db.child --rename child=${db}_b.child <s.rp | sqlexec $C 2>err
is "$? $(fks child ${db}_b)" "0 child_ibfk_1 fk_child_parent " \
    "moved to another database: the names are kept"

# a name that cannot be made the copy's: too long, refused before the table
long=$(printf 'x%.0s' $(seq 60))
sql $db -e "CREATE TABLE c2 (id INT PRIMARY KEY, p INT,
    CONSTRAINT $long FOREIGN KEY (p) REFERENCES parent (id))" || exit 1
dbsnap $C $db c2 | rowmap --rename c2=c2_copy 2>err | framecat >frames 2>/dev/null
like "$(cat err)" "^rowmap: .*$db\.c2: --rename: foreign key $long: its name for the renamed table, c2_copy_$long, is longer than 64 characters" \
    "a foreign key name too long for the copy: the key named"
is "$(grep -c '^OBJECT' frames)" 1 "and nothing of the table goes out (its database only)"

sql -e "DROP DATABASE ${db}_b; DROP DATABASE $db"
done_testing
