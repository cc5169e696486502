#!/bin/sh
# rows2sql --rename of a table with foreign keys, into its own database
# (issue 25): foreign key names belong to the database, so a copy that
# kept them failed with ERROR 1005 (errno 121 "Duplicate key on write or
# update") and then printed a resume point that could not help.  The copy
# now gets its own names: InnoDB's `old_ibfk_N` becomes `new_ibfk_N`, any
# other name gets "new_" before it; a name that would be too long is an
# error before anything is written.  A CHECK constraint's name is the
# table's, and stays.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t2107

fresh_db $db
sql $db -e "CREATE TABLE parent (id INT PRIMARY KEY);
    CREATE TABLE child (id INT PRIMARY KEY, p INT, q INT,
	CONSTRAINT fk_child_parent FOREIGN KEY (p) REFERENCES parent (id),
	FOREIGN KEY (q) REFERENCES parent (id),
	CONSTRAINT ck_q CHECK (q > 0));
    INSERT INTO parent VALUES (1), (2);
    INSERT INTO child VALUES (1, 1, 2), (2, 2, 1)" || exit 1
fks() {
	sql -e "SELECT CONSTRAINT_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS
	    WHERE CONSTRAINT_SCHEMA = '$db' AND TABLE_NAME = '$1' ORDER BY 1" |
	    tr '\n' ' '
}
is "$(fks child)" "child_ibfk_1 fk_child_parent " "(the source's foreign keys)"

dbsnap $C $db child | rows2sql --rename child=child_copy >copy.sql
is $? 0 "rows2sql --rename child=child_copy"
like "$(grep -c 'CONSTRAINT `child_copy_ibfk_1` FOREIGN KEY' copy.sql) $(grep -c 'CONSTRAINT `child_copy_fk_child_parent` FOREIGN KEY' copy.sql)" \
    "^1 1$" "its foreign keys are renamed for the copy"
like "$(grep -c 'CONSTRAINT `ck_q` CHECK' copy.sql)" "^1$" "its CHECK keeps its name"
sqlsplit copy.sql | sqlexec $C 2>err
is "$? $(cat err | grep -v ' statements, ')" "0 " \
    "the copy loads beside the original (before: ERROR 1005, errno 121)"
is "$(fks child_copy)" "child_copy_fk_child_parent child_copy_ibfk_1 " \
    "with its own foreign keys"
is "$(fks child)" "child_ibfk_1 fk_child_parent " "the original keeps its own"
is "$(sql $db -e "SELECT COUNT(*) FROM child_copy")" 2 "and its rows"
sql $db -e "INSERT INTO child_copy VALUES (3, 9, 1)" 2>/dev/null
isnt $? 0 "the copy's foreign key is enforced"

# a name that cannot be made the copy's: too long, refused before the table
long=$(printf 'x%.0s' $(seq 60))
sql $db -e "CREATE TABLE c2 (id INT PRIMARY KEY, p INT,
    CONSTRAINT $long FOREIGN KEY (p) REFERENCES parent (id))" || exit 1
dbsnap $C $db c2 | rows2sql --rename c2=c2_copy >long.sql 2>err
is $? 1 "a foreign key name too long for the copy: exit 1"
like "$(cat err)" "^rows2sql: .*$db.c2: --rename: foreign key $long: its name for the renamed table, c2_copy_$long, is longer than 64 characters" \
    "naming the key"
is "$(grep -c '^CREATE TABLE' long.sql)" 0 "and nothing of the table is written"

# moved to another database: names are free there, kept
fresh_db ${db}_b
dbsnap $C $db child | rows2sql --rename child=${db}_b.child | sqlsplit |
    sqlexec $C 2>/dev/null
is "$(fks child | tr -d ' ') $(sql -e "SELECT GROUP_CONCAT(CONSTRAINT_NAME ORDER BY 1)
    FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = '${db}_b'")" \
    "child_ibfk_1fk_child_parent child_ibfk_1,fk_child_parent" \
    "moved to another database: the names are kept"

# a table that references itself: the copy references the copy (it
# referenced the original, whose rows it then held: DELETE failed there)
sql $db -e "CREATE TABLE tree (id INT PRIMARY KEY, up INT,
    FOREIGN KEY (up) REFERENCES tree (id));
    INSERT INTO tree VALUES (1, NULL), (2, 1)" || exit 1
dbsnap $C $db tree | rows2sql --rename tree=tree_copy | sqlsplit |
    sqlexec $C 2>/dev/null
is "$(sql -e "SELECT REFERENCED_TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS
    WHERE CONSTRAINT_SCHEMA = '$db' AND TABLE_NAME = 'tree_copy'")" tree_copy \
    "a self-reference is the copy's own"
sql $db -e "DELETE FROM tree WHERE id = 2; DELETE FROM tree WHERE id = 1"
is $? 0 "and the original's rows are its own to delete"

# references to other tables follow the renames: parent and child both
# renamed, the child's copy references the parent's copy; a child moved
# alone to another database references the parent where it stays
# (before: the copy referenced the original parent, and the moved child
# an unqualified `parent` that its new database does not have)
refs() {
	sql -e "SELECT CONCAT(UNIQUE_CONSTRAINT_SCHEMA, '.', REFERENCED_TABLE_NAME)
	    FROM information_schema.REFERENTIAL_CONSTRAINTS
	    WHERE CONSTRAINT_SCHEMA = '$1' AND TABLE_NAME = '$2' ORDER BY 1" |
	    sort -u | tr '\n' ' '
}
dbsnap $C $db parent child |
    rows2sql --rename parent=parent2 --rename child=child2 | sqlsplit |
    sqlexec $C 2>err
is "$? $(refs $db child2)" "0 $db.parent2 " \
    "both renamed: the child's copy references the parent's copy"
sql $db -e "DELETE FROM child2; DELETE FROM parent2"
is $? 0 "... and the copies' rows delete, children first, as in the original"
sql -e "DROP DATABASE IF EXISTS ${db}_c; CREATE DATABASE ${db}_c"
dbsnap $C $db child | rows2sql --rename "$db.child=${db}_c.child" | sqlsplit |
    sqlexec $C 2>err
is "$? $(refs ${db}_c child)" "0 $db.parent " \
    "a child moved alone to another database references the parent where it is"
sql -e "INSERT INTO ${db}_c.child VALUES (9, 1, 2)"
is $? 0 "... and a row that the parent holds can be inserted there"

sql -e "DROP DATABASE ${db}_c; DROP DATABASE ${db}_b; DROP DATABASE $db"
done_testing
