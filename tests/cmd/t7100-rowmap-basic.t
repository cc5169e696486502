#!/bin/sh
# rowmap without a server: options, the CREATE TABLE rewritten for each
# column transform, the rows and TABLE frames to match, pseudonyms, table
# filters and renames, and every refusal with its exact exit code.
. "$(dirname "$0")/../lib.sh"

gen() { tr '|' '\t' | r2s-gen; }

# Two databases; a customer table with a unique email, an index, a
# generated column and a CHECK; orders with a foreign key to it; a view
# and a trigger.
cat >base.txt <<'X'
HEADER|producer=test time_zone=+00:00
OBJECT|database|d1|d1|CREATE DATABASE `d1` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci */
OBJECT|table|d1|cust|CREATE TABLE `cust` (\n  `id` int(11) NOT NULL,\n  `email` varchar(50) NOT NULL,\n  `name` varchar(40) DEFAULT NULL,\n  `city` varchar(30) NOT NULL DEFAULT 'x',\n  `up` varchar(40) GENERATED ALWAYS AS (ucase(`name`)) VIRTUAL,\n  `pic` varbinary(20) DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `uk_email` (`email`),\n  KEY `k_name_city` (`name`,`city`),\n  KEY `k_city` (`city`),\n  CONSTRAINT `ck_city` CHECK (`city` <> '')\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
OBJECT|table|d1|orders|CREATE TABLE `orders` (\n  `oid` int(11) NOT NULL,\n  `cust_id` int(11) NOT NULL,\n  `note` text DEFAULT NULL,\n  PRIMARY KEY (`oid`),\n  KEY `k_cust` (`cust_id`),\n  CONSTRAINT `fk_cust` FOREIGN KEY (`cust_id`) REFERENCES `cust` (`id`)\n) ENGINE=InnoDB
OBJECT|table|d1|log|CREATE TABLE `log` (\n  `n` int(11) NOT NULL\n) ENGINE=InnoDB
TABLE|1|d1|cust|6
COLUMN|1|0|id|3|0x61|63|0|int(11)
COLUMN|1|1|email|253|0x81|45|0|varchar(50)
COLUMN|1|2|name|253|0|45|0|varchar(40)
COLUMN|1|3|city|253|0x1|45|0|varchar(30)
COLUMN|1|4|up|253|0x8|45|0|varchar(40)
COLUMN|1|5|pic|253|0x4|63|0|varbinary(20)
ROW|1|31|'a@x.org|'Ann|'Oslo|'ANN|0102
ROW|1|32|'b@x.org|'Bob|'Rome|'BOB|\N
ROW|1|33|'c@x.org|'Ann|'Oslo|'ANN|0102
TABLE_END|1|3
TABLE|2|d1|orders|3
COLUMN|2|0|oid|3|0x61|63|0|int(11)
COLUMN|2|1|cust_id|3|0x41|63|0|int(11)
COLUMN|2|2|note|252|0|45|0|text
ROW|2|31|31|'n1
ROW|2|32|33|\N
TABLE_END|2|2
TABLE|3|d1|log|1
COLUMN|3|0|n|3|0x41|63|0|int(11)
ROW|3|37
TABLE_END|3|1
OBJECT|view|d1|v_cust|CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `d1`.`v_cust` AS select `d1`.`cust`.`id` AS `id`,`d1`.`cust`.`name` AS `name` from `d1`.`cust`|character_set_client=utf8mb4 collation_connection=utf8mb4_general_ci
OBJECT|trigger|d1|t_ord|CREATE DEFINER=`root`@`localhost` TRIGGER `t_ord` BEFORE INSERT ON `orders` FOR EACH ROW SET NEW.note = 'new'|table=orders sql_mode= character_set_client=utf8mb4 collation_connection=utf8mb4_general_ci collation_database=utf8mb4_general_ci
X
{ cat base.txt; echo TRAILER; } | gen >s.rp
printf '0123456789abcdef0123456789abcdef\n' >k1
printf 'another key, long enough\n' >k2
chmod 600 k1 k2

# obj NAME: the DDL of object NAME in the stream on stdin.
obj() { framecat | awk -F '\t' -v n="$1" '$1 == "OBJECT" && $4 == n { print $5 }'; }
rows() { framecat -t | grep -a "^ROW	$1	" | cut -f3-; }
cols() { framecat | awk -F '\t' -v t="$1" '$1 == "COLUMN" && $2 == t { printf "%s ", $4 }'; }

rowmap --version >/dev/null; is $? 0 "--version exits 0"
rowmap --bogus </dev/null 2>err; is $? 2 "an unknown option exits 2"
rowmap --drop nodot </dev/null 2>err; is $? 2 "--drop without table.column exits 2"
like "$(cat err)" '^rowmap: --drop nodot: expected \[db\.\]table\.column$' "and says what it expects"
rowmap --set cust.email </dev/null 2>err; is $? 2 "--set without =value exits 2"
rowmap --drop cust.id --null cust.id </dev/null 2>err; is $? 2 "two transforms of one column exit 2"
rowmap --hash cust.email:nosuch </dev/null 2>err; is $? 2 "a missing key file exits 2"
like "$(cat err)" '^rowmap: key file nosuch: No such file' "and names it"
printf 'short\n' >kshort
rowmap --hash cust.email:kshort </dev/null 2>err; is $? 2 "a key file under 16 bytes exits 2"
rowmap --key-file k1 </dev/null 2>err; is $? 2 "--key-file without --hash exits 2"
rowmap --rename a= </dev/null 2>err; is $? 2 "--rename a= exits 2"

rowmap s.rp >same.rp; is $? 0 "no option: the stream passes"
framecat <s.rp >a.txt; framecat <same.rp >b.txt
is_file b.txt a.txt "frame for frame"

# --drop of an unknown column or table: exit 1 before any table.
rowmap --drop cust.emial s.rp >out.rp 2>err; is $? 1 "--drop of an unknown column exits 1"
is "$(cat err)" "rowmap: --drop cust.emial: d1.cust has no column emial" "and names it"
is "$(framecat <out.rp 2>/dev/null | cut -f1 | sort -u | tr '\n' ' ')" "HEADER " \
    "nothing but the header went out"
rowmap --null cast.email s.rp >/dev/null 2>err; is $? 1 "an unknown table exits 1"
is "$(cat err)" "rowmap: --null cast.email: no such table in the stream" "and says so"

# --drop: the column, its key parts, its index, its rows.
rowmap --drop cust.city --drop cust.pic s.rp >drop.rp 2>err
is $? 1 "--drop of a column a CHECK uses exits 1"
like "$(cat err)" "--drop cust.city: d1.cust: constraint \`ck_city\` uses it" "and names the constraint"
rowmap --drop cust.pic --drop cust.name s.rp >drop.rp 2>err
is $? 1 "--drop of a column a generated column uses exits 1"
like "$(cat err)" "column \`up\` uses it" "and names the column"
rowmap --drop cust.pic --drop cust.up s.rp >drop.rp 2>err; is $? 0 "--drop of two columns"
is "$(obj cust <drop.rp)" 'CREATE TABLE `cust` (\n  `id` int(11) NOT NULL,\n  `email` varchar(50) NOT NULL,\n  `name` varchar(40) DEFAULT NULL,\n  `city` varchar(30) NOT NULL DEFAULT '"'x'"',\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `uk_email` (`email`),\n  KEY `k_name_city` (`name`,`city`),\n  KEY `k_city` (`city`),\n  CONSTRAINT `ck_city` CHECK (`city` <> '"''"')\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' \
    "the CREATE TABLE loses them"
is "$(cols 1 <drop.rp)" "id email name city " "the TABLE frame too"
is "$(rows 1 <drop.rp | tr '\t' ' ' | tr '\n' '|')" "1 a@x.org Ann Oslo|2 b@x.org Bob Rome|3 c@x.org Ann Oslo|" \
    "and the rows"
printf 'HEADER|producer=t\nOBJECT|table|d1|k|CREATE TABLE `k` (\\n  `a` int(11) NOT NULL,\\n  `b` int(11) NOT NULL,\\n  `c` int(11),\\n  UNIQUE KEY `u` (`a`,`b`),\\n  KEY `kb` (`b`,`c`),\\n  KEY `kc` (`c`)\\n)\nTABLE|1|d1|k|3\nCOLUMN|1|0|a|3|0x41|63|0|int(11)\nCOLUMN|1|1|b|3|0x41|63|0|int(11)\nCOLUMN|1|2|c|3|0x40|63|0|int(11)\nROW|1|31|32|33\nTABLE_END|1|1\nTRAILER\n' | gen >k.rp
rowmap --drop k.c k.rp | obj k >k.ddl
is "$(cat k.ddl)" 'CREATE TABLE `k` (\n  `a` int(11) NOT NULL,\n  `b` int(11) NOT NULL,\n  UNIQUE KEY `u` (`a`,`b`),\n  KEY `kb` (`b`)\n)' \
    "a dropped column leaves its indexes; an index of it alone goes"
rowmap --drop k.b k.rp >/dev/null 2>err; is $? 1 "--drop of part of a unique key exits 1"
is "$(cat err)" "rowmap: --drop k.b: d1.k: unique key \`u\` would no longer be unique without it" "and names the key"
rowmap --drop cust.id s.rp >/dev/null 2>err; is $? 1 "--drop of a column a foreign key refers to exits 1"
is "$(cat err)" "rowmap: --drop cust.id: d1.orders: foreign key \`fk_cust\` refers to it" "and names the key"
rowmap --drop orders.cust_id s.rp >/dev/null 2>err; is $? 1 "--drop of a foreign key's column exits 1"
like "$(cat err)" "foreign key \`fk_cust\` needs it" "and names it"
rowmap --drop cust.name s.rp >/dev/null 2>err; is $? 1 "--drop of a column a view uses exits 1"
rowmap --drop cust.up --drop cust.name s.rp >cut.rp 2>err; is $? 1 "--drop of a column a view uses exits 1"
is "$(cat err | sed 's/^rowmap: frame [0-9]* at offset [0-9]*: //')" "--drop cust.name: d1.v_cust uses it" \
    "and names the view"
framecat <cut.rp >/dev/null 2>err; is $? 1 "the stream it wrote has no trailer"
rowmap --drop orders.note s.rp >/dev/null 2>err; is $? 1 "--drop of a column a trigger uses exits 1"
like "$(cat err)" "orders.note: d1.t_ord uses it" "and names the trigger"

# --null: the column becomes nullable, its values NULL.
rowmap --null cust.city s.rp >null.rp; is $? 0 "--null"
like "$(obj cust <null.rp)" '`city` varchar\(30\) NULL DEFAULT' "NOT NULL becomes NULL in the CREATE TABLE"
is "$(framecat <null.rp | awk -F '\t' '$1 == "COLUMN" && $4 == "city" { print $6 }')" "0x0" \
    "and in the TABLE frame"
is "$(rows 1 <null.rp | cut -f4 | sort -u)" '\N' "every value is NULL"
rowmap --null cust.id s.rp >/dev/null 2>err; is $? 1 "--null of a primary key column exits 1"
like "$(cat err)" "the primary key needs its values" "and names the key"
rowmap --null cust.up s.rp >/dev/null 2>err; is $? 1 "--null of a generated column exits 1"

# --set
rowmap --set cust.city=Paris --set orders.note= s.rp >set.rp; is $? 0 "--set"
is "$(rows 1 <set.rp | cut -f4 | sort -u) $(rows 2 <set.rp | cut -f3 | sort -u | wc -l)" "Paris 1" "every value set"
rowmap --set cust.email=x s.rp >/dev/null 2>err; is $? 1 "--set of a unique column exits 1"
like "$(cat err)" "unique key \`uk_email\` needs its values" "and names the key"

# --hash: keyed, deterministic, equal values equal.
rowmap --hash cust.email:k1 --hash cust.name:k1 --hash cust.pic:k1 s.rp >h1.rp; is $? 0 "--hash"
rowmap --key-file k1 --hash cust.email --hash cust.name --hash cust.pic s.rp >h1b.rp
cmp -s h1.rp h1b.rp; is $? 0 "--key-file gives the same pseudonyms"
rows 1 <h1.rp >h1.rows
like "$(cut -f2 h1.rows | head -1)" '^[0-9a-f]{32}$' "a pseudonym is 32 hex digits"
is "$(cut -f2 h1.rows | sort -u | wc -l)" 3 "distinct emails stay distinct"
is "$(cut -f3 h1.rows | sort | uniq -c | awk '{print $1}' | sort | tr '\n' ' ')" "1 2 " "equal names stay equal"
email1=$(printf 'a@x.org' | openssl dgst -sha256 -hmac "$(cat k1)" -hex | sed 's/.*= //' | cut -c1-32)
is "$(cut -f2 h1.rows | head -1)" "$email1" "the pseudonym is HMAC-SHA256 of the value (openssl agrees)"
pic1=$(printf '\001\002' | openssl dgst -sha256 -hmac "$(cat k1)" -hex | sed 's/.*= //' | cut -c1-32)
is "$(framecat <h1.rp | grep '^ROW	1' | head -1 | cut -f8)" "$(echo $pic1 | tr a-f A-F)" \
    "a binary column gets 16 raw bytes"
rowmap --hash cust.email:k2 s.rp | rows 1 | cut -f2 | head -1 >h2
isnt "$(cat h2)" "$email1" "another key gives other pseudonyms"
rowmap --hash cust.email s.rp | rows 1 | cut -f2 | head -1 >r1
rowmap --hash cust.email s.rp | rows 1 | cut -f2 | head -1 >r2
isnt "$(cat r1)" "$(cat r2)" "without a key file each run has its own random key"
rowmap --hash orders.cust_id:k1 s.rp >/dev/null 2>err; is $? 1 "--hash of a number exits 1"
like "$(cat err)" "int\(11\) column cannot take a pseudonym" "and says why"
rowmap --hash cust.up:k1 s.rp >/dev/null 2>err; is $? 1 "--hash of a generated column exits 1"

# Table filters.
rowmap --tables 'd1.c*' s.rp | framecat | awk -F '\t' '$1 == "TABLE" || $1 == "OBJECT" { print $2 "." $4 }' >f.txt
is "$(tr '\n' ' ' <f.txt)" "database.d1 table.cust 1.cust " "--tables with a pattern keeps its tables (and their database)"
rowmap --exclude d1.log --exclude d1.orders s.rp | framecat | grep -c 'orders\|	log	' >n
is "$(cat n)" 0 "--exclude leaves tables out, with their triggers"
rowmap --exclude d1.cust s.rp >/dev/null 2>err; is $? 1 "leaving out a table a view uses exits 1"
like "$(cat err)" "d1.v_cust: view uses d1.cust, which is left out \(leave the view out too: --exclude d1.v_cust as well\)$" \
    "and names the view, and the way out (issue 25, newuser 3)"
rowmap --exclude d1.cust --exclude d1.v_cust s.rp >/dev/null 2>err
is "$? $(cat err)" "0 " "which works"
rowmap --tables d1.nosuch s.rp >/dev/null 2>err; is $? 1 "a pattern that matches nothing exits 1"
is "$(cat err)" "rowmap: --tables or --exclude d1.nosuch matched no table or object of the stream" "and names it"
rowmap --exclude d1.log --drop log.n s.rp >/dev/null 2>err; is $? 1 "a transform of a table left out exits 1"

# Renames.
rowmap --rename d1.nosuch=x s.rp >/dev/null 2>err
is "$? $(cat err)" "1 rowmap: --rename d1.nosuch: no such table in the stream" \
    "a --rename of no table exits 1 and names it"
rowmap --rename-db nosuch=x s.rp >/dev/null 2>err
is "$? $(cat err)" "1 rowmap: --rename-db nosuch: no such database in the stream" \
    "a --rename-db of no database exits 1 and names it"
rowmap --rename log=journal s.rp >r.rp; is $? 0 "--rename"
like "$(obj journal <r.rp)" '^CREATE TABLE `journal` ' "the CREATE TABLE is renamed"
is "$(framecat <r.rp | awk -F '\t' '$1 == "TABLE" { print $3 "." $4 }' | tr '\n' ' ')" "d1.cust d1.orders d1.journal " \
    "and its TABLE frame"
rowmap --rename cust=client s.rp >r.rp; is $? 0 "--rename of a table others refer to"
like "$(obj orders <r.rp)" 'REFERENCES `d1`.`client` \(`id`\)' "a foreign key follows"
like "$(obj v_cust <r.rp)" 'select `d1`.`client`.`id` AS `id`,`d1`.`client`.`name` AS `name` from `d1`.`client`' \
    "a view's references follow"
rowmap --rename orders=ord s.rp >r.rp 2>err; is $? 0 "--rename of a table with a trigger"
like "$(cat err)" 'rowmap: d1.t_ord: trigger of renamed table orders left out' "its trigger is left out, with a warning"
rowmap --rename-db d1=d2 s.rp >r.rp; is $? 0 "--rename-db"
is "$(framecat <r.rp | awk -F '\t' '$1 == "OBJECT" { print $3 }' | sort -u)" "d2" "every object is in d2"
like "$(obj d2 <r.rp)" '^CREATE DATABASE `d2` ' "the database is renamed"
rowmap --rename orders=d3.orders s.rp >m.rp; is $? 0 "--rename t=db2.t"
is "$(framecat <m.rp | awk -F '\t' '$1 == "OBJECT" || $1 == "TABLE" { print $1 " " $2 " " $3 "." $4 }' | tr '\n' '|')" \
    "OBJECT database d1.d1|OBJECT table d1.cust|OBJECT database d3.d3|OBJECT table d3.orders|OBJECT table d1.log|TABLE 1 d1.cust|TABLE 2 d3.orders|TABLE 3 d1.log|OBJECT view d1.v_cust|OBJECT trigger d3.t_ord|" \
    "moves the table, its trigger and its rows into d3, which is created"
like "$(obj orders <m.rp)" 'REFERENCES `d1`.`cust`' "its foreign key still names d1.cust"
like "$(obj d3 <m.rp)" '^CREATE DATABASE `d3` /\*!40100 DEFAULT CHARACTER SET utf8mb4' "d3 gets d1's character set"
rowmap --rename cust=d3.cust s.rp | obj orders | grep -c 'REFERENCES `d3`.`cust`' >n
is "$(cat n)" 1 "a foreign key follows a moved table"

# rows2sql's --rename and --tables are the same code (lib/names).
rows2sql --rename orders=d3.orders s.rp >r.sql; is $? 0 "rows2sql --rename t=db2.t"
is "$(grep -E '^(USE|CREATE TABLE|INSERT INTO|CREATE DEFINER)' r.sql | grep -E -B1 'orders|t_ord' |
    grep -E '^USE' | sort -u)" 'USE `d3`;' "rows2sql moves the table, its rows and its trigger into d3"
rows2sql --tables 'c*' s.rp | grep -c '^CREATE TABLE' >n
is "$(cat n)" 1 "rows2sql --tables takes the same patterns"

done_testing
