#!/bin/sh
# Option files: every long option of a program in its [program] group,
# as the mysql client reads them (defaults, --defaults-file,
# --defaults-extra-file, --no-defaults, !include, !includedir, quotes,
# comments, '-' and '_', skip-, loose-); the command line wins; an
# unknown key is an error naming the file and line.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t0112_db
fresh_db $DB
sql $DB <<'SQL' >/dev/null || exit 1
CREATE TABLE t (id int PRIMARY KEY, v varchar(10));
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
CREATE PROCEDURE p() SELECT 1;
CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1;
SQL
C="-uroot -S $RP_SOCK"
count() { grep -c "^OBJECT	$1	" out.txt; }
snap() { dbsnap "$@" >out.rp 2>err && framecat <out.rp >out.txt; }

# [dbsnap] routines, events and jobs=2 honoured (no-lock: the header says
# so, which only happens with more than one job).
printf '[client]\nprompt = x\n[dbsnap]\nroutines\nevents\njobs=2\nno_lock\n' >a.cnf
snap --defaults-file=a.cnf $C $DB
is "$?" 0 "[dbsnap] routines, events, jobs=2, no_lock: exit 0"
is "$(count procedure) $(count event)" "1 1" "... routines and events dumped"
like "$(grep '^HEADER' out.txt)" "consistency=none" "... jobs=2 and no-lock honoured"
like "$(cat err)" "--no-lock with 2 jobs" "... with the --no-lock warning"

# The command line wins over the file.
snap --defaults-file=a.cnf $C -j 1 $DB
like "$(grep '^HEADER' out.txt)" "consistency=snapshot" "-j 1 wins over jobs=2"

# --defaults-extra-file is read after: skip- and =0 turn flags off.
printf '[dbsnap]\nskip-routines\nevents = OFF\n' >b.cnf
snap --defaults-file=a.cnf --defaults-extra-file=b.cnf $C $DB
is "$(count procedure) $(count event)" "0 0" "skip-routines, events=OFF in the extra file"

# Quoted values, comments, escapes, '_' for '-', !include.
printf '[dbsnap] \n# a comment\n; another\nwhere = "id > 1" # why\n!include b.cnf\n' >c.cnf
printf '[dbsnap]\nchunk_rows = 1\n' >>b.cnf
snap --defaults-file=c.cnf $C $DB
is "$?" 0 "quoted value, comments, !include: exit 0"
is "$(grep -c '^ROW	' out.txt)" 2 "... where = \"id > 1\" (quoted, with a comment) honoured"

# !includedir: the .cnf files in name order, nothing else.
mkdir d
printf '[dbsnap]\nroutines\n' >d/1.cnf
printf '[dbsnap]\nskip_routines\nevents\n' >d/2.cnf
printf '[dbsnap]\nsockett=1\n' >d/3.txt
printf '[dbsnap]\n!includedir d\n' >e.cnf
snap --defaults-file=e.cnf $C $DB
is "$?" 0 "!includedir: exit 0 (a file not ending in .cnf is not read)"
is "$(count procedure) $(count event)" "0 1" "... its files in name order"

# An unknown key: exit 2, naming the file and the line, before connecting.
printf '[client]\nuser=x\n[dbsnap]\nroutines\nsockett=/tmp/x.sock\n' >bad.cnf
dbsnap --defaults-file=bad.cnf -S nosuch.sock $DB >out.rp 2>err
is "$?" 2 "sockett=: exit 2"
is "$(cat err)" "dbsnap: bad.cnf:5: unknown option 'sockett' in [dbsnap]" \
    "sockett=: the file and line named"
is "$(wc -c <out.rp | tr -d ' ')" 0 "sockett=: no output"
# ... also in an included file, which is then the one named.
printf '[dbsnap]\n!include bad.cnf\n' >inc.cnf
dbsnap --defaults-file=inc.cnf -S nosuch.sock $DB >/dev/null 2>err
is "$(cat err)" "dbsnap: bad.cnf:5: unknown option 'sockett' in [dbsnap]" \
    "in an !include: that file named"
# ... unless loose-, as with the mysql client.
printf '[dbsnap]\nloose-sockett=1\n' >loose.cnf
snap --defaults-file=loose.cnf $C $DB
is "$?" 0 "loose-sockett: ignored"
# A bad value: the option's own message, with the file and line.
printf '[dbsnap]\n\njobs = 0\n' >bad.cnf
dbsnap --defaults-file=bad.cnf -S nosuch.sock $DB >/dev/null 2>err
is "$?" 2 "jobs=0: exit 2"
is "$(cat err)" "dbsnap: bad.cnf:3: -j 0: too small" "jobs=0: the file and line named"
printf '[dbsnap]\nroutines = maybe\n' >bad.cnf
dbsnap --defaults-file=bad.cnf -S nosuch.sock $DB >/dev/null 2>err
like "$(cat err)" "^dbsnap: bad.cnf:2: routines=maybe: expected 1 or 0" "a flag's bad value"
printf '[dbsnap]\njobs\n' >bad.cnf
dbsnap --defaults-file=bad.cnf -S nosuch.sock $DB >/dev/null 2>err
is "$(cat err)" "dbsnap: bad.cnf:2: jobs: value required" "a value missing"
printf 'jobs=2\n' >bad.cnf
dbsnap --defaults-file=bad.cnf -S nosuch.sock $DB >/dev/null 2>err
is "$(cat err)" "dbsnap: bad.cnf:1: option before the first [group]" "no group"
printf '[dbsnap\n' >bad.cnf
dbsnap --defaults-file=bad.cnf -S nosuch.sock $DB >/dev/null 2>err
is "$(cat err)" "dbsnap: bad.cnf:1: group without ']'" "a broken group line"
# Command-line-only options are not taken from files.
printf '[dbsnap]\nno-defaults\n' >bad.cnf
dbsnap --defaults-file=bad.cnf -S nosuch.sock $DB >/dev/null 2>err
is "$(cat err)" "dbsnap: bad.cnf:2: unknown option 'no-defaults' in [dbsnap]" \
    "no-defaults in a file: unknown"
# Connection options in [dbsnap] are known (Connector/C reads them), and
# so are the other options Connector/C reads.
printf '[dbsnap]\nsocket=%s\nuser=root\ndefault-character-set=utf8mb4\n' \
    "$RP_SOCK" >conn.cnf
snap --defaults-file=conn.cnf $DB
is "$?" 0 "[dbsnap] socket, user, default-character-set: connects"

# The default files: ~/.my.cnf is read, --no-defaults reads none.
mkdir home
printf '[sqlsplit]\nprint\n[sqlexec]\ndry-run\n[lz]\nfast=3\n' >home/.my.cnf
echo "SELECT 1;" >in.sql
is "$(HOME=$T_DIR/home sqlsplit in.sql)" "SELECT 1;" "~/.my.cnf: [sqlsplit] print"
HOME=$T_DIR/home sqlsplit --no-defaults in.sql >out.rp
is "$(framecat <out.rp | grep -c '^STMT')" 1 "--no-defaults: ~/.my.cnf not read"
sqlsplit --no-defaults in.sql | HOME=$T_DIR/home sqlexec >out 2>&1
like "$(cat out)" "^statement 1 \(line 1\): .*barrier" "~/.my.cnf: [sqlexec] dry-run (connects to nothing)"

# rows2sql and lz read their groups too.
snap --no-defaults $C $DB
printf '[rows2sql]\nno_data\n' >r.cnf
rows2sql --defaults-file=r.cnf <out.rp >out.sql
is "$?" 0 "[rows2sql] no_data: exit 0"
is "$(grep -c INSERT out.sql)" 0 "... no INSERT written"
printf '[lz]\nthreads=zero\n' >l.cnf
lz --defaults-file=l.cnf <in.sql >/dev/null 2>err
is "$?" 2 "[lz] threads=zero: exit 2"
is "$(cat err)" "lz: l.cnf:2: -T zero: invalid" "... saying where and why"

done_testing
