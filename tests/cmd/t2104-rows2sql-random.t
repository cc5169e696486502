#!/bin/sh
# rows2sql value literals against the server, without dbsnap: random
# values (every escape-worthy byte, multi-byte UTF-8, all byte values in
# latin1 and binary columns, long runs across the 16-byte blocks) written
# by r2s-gen, converted, loaded with the mariadb client; the server must
# store exactly the bytes that went in.
. "$(dirname "$0")/../lib.sh"
need_server

DB=t2104_dst
sql -e "DROP DATABASE IF EXISTS $DB"

# Rows: id, utf8mb4 text, latin1 text, blob, cp1251 text; also the
# expected "id|HEX|HEX|HEX|HEX" lines.
LC_ALL=C awk -v seed=2104 -v rows=3000 -v db=$DB 'BEGIN {
	srand(seed)
	split("00 0A 0D 1A 22 27 5C 25 5F 09 20 7F C3A9 E282AC F09F9880 DFBF EFBFBD", u, " ")
	nu = 17
	printf "HEADER\tproducer=test\n"
	printf "OBJECT\tdatabase\t%s\t%s\tCREATE DATABASE `%s`\n", db, db, db
	printf "OBJECT\ttable\t%s\tr\tCREATE TABLE `r` (`id` int PRIMARY KEY, `u` mediumtext CHARACTER SET utf8mb4, `l` mediumtext CHARACTER SET latin1, `b` mediumblob, `c` text CHARACTER SET cp1251)\n", db
	printf "TABLE\t1\t%s\tr\t5\n", db
	printf "COLUMN\t1\t0\tid\t3\t0x61\t63\t0\tint(11)\n"
	printf "COLUMN\t1\t1\tu\t252\t0\t45\t0\tmediumtext\n"
	printf "COLUMN\t1\t2\tl\t252\t0\t8\t0\tmediumtext\n"
	printf "COLUMN\t1\t3\tb\t252\t0x4\t63\t0\tmediumblob\n"
	printf "COLUMN\t1\t4\tc\t252\t0\t51\t0\ttext\n"
	for (i = 1; i <= rows; i++) {
		n = int(rand() * rand() * 200)
		hu = ""
		for (j = 0; j < n; j++) {
			if (rand() < 0.5)
				hu = hu sprintf("%02X", 0x30 + int(rand() * 75))
			else
				hu = hu u[1 + int(rand() * nu)]
		}
		hl = ""; hb = ""; hc = ""
		n = int(rand() * rand() * 200)
		for (j = 0; j < n; j++) hl = hl sprintf("%02X", int(rand() * 256))
		n = int(rand() * rand() * 200)
		for (j = 0; j < n; j++) hb = hb sprintf("%02X", int(rand() * 256))
		# cp1251: every byte but 0x98, which it does not map.
		n = int(rand() * 40)
		for (j = 0; j < n; j++) {
			x = int(rand() * 256); if (x == 152) x = 92
			hc = hc sprintf("%02X", x)
		}
		if (rand() < 0.05) { hu = "\\N"; }
		printf "ROW\t1\t%s\t%s\t%s\t%s\t%s\n", hexnum(i), hu, hl, hb, hc
		printf "%d|%s|%s|%s|%s\n", i, hu == "\\N" ? "N" : hu, hl, hb, hc > "expect"
	}
	printf "TABLE_END\t1\t%d\nTRAILER\n", rows
}
function hexnum(v,   s, k, d) { s = v ""; d = ""; for (k = 1; k <= length(s); k++) d = d sprintf("%02X", 48 + substr(s, k, 1)); return d }
' </dev/null >desc.txt
r2s-gen <desc.txt >r.rp; is $? 0 "random stream written"

got() {
	sql $DB -e "SELECT CONCAT_WS('|', id, IFNULL(HEX(u), 'N'), HEX(l), HEX(b), HEX(c)) FROM r ORDER BY id"
}

rows2sql r.rp >a.sql; is $? 0 "rows2sql"
sql <a.sql; is $? 0 "loads"
is_file "$(got >a.got; echo a.got)" expect "every value stored as it went in"

sql -e "DROP DATABASE $DB"
rows2sql --no-hex-blob --max-statement-size=2K r.rp >b.sql
sql <b.sql; is $? 0 "--no-hex-blob --max-statement-size=2K loads"
is_file "$(got >b.got; echo b.got)" expect "same values"
is "$(LC_ALL=C awk '/^INSERT/ && length($0) > 2048 && index($0, "),(")' b.sql | wc -l)" 0 "extended INSERTs within 2K"

sql -e "DROP DATABASE $DB"
sql --init-command="SET SESSION sql_mode='ANSI_QUOTES,NO_BACKSLASH_ESCAPES,STRICT_ALL_TABLES'" <a.sql
is $? 0 "loads under ANSI_QUOTES,NO_BACKSLASH_ESCAPES,STRICT_ALL_TABLES"
is_file "$(got >c.got; echo c.got)" expect "same values"

sql -e "DROP DATABASE $DB"
done_testing
