#!/bin/sh
# rows2json and json2rows without a server: the lines as rows2json(1)
# specifies them, the lossless round trip (frames, rows2sql text, through
# jq), edits by jq and awk, and every kind of bad input json2rows refuses.
. "$(dirname "$0")/../lib.sh"

gen() { tr '|' '\t' | r2s-gen; }

# latin1 (8) and ucs2 (35) text, a blob, a NOT NULL key, NULs and
# control bytes, invalid UTF-8 in a utf8mb4 (45) column, an interleaved
# second table, objects and a trigger.
cat >base.txt <<'X'
HEADER|producer=test server_version=10.11 time_zone=+00:00
OBJECT|database|d1|d1|CREATE DATABASE `d1` /*!40100 DEFAULT CHARACTER SET utf8mb4 */
OBJECT|table|d1|t1|CREATE TABLE `t1` (\n  `id` int NOT NULL,\n  `s` varchar(20),\n  `b` blob,\n  `l` varchar(20) CHARACTER SET latin1,\n  `u` varchar(5) CHARACTER SET ucs2,\n  PRIMARY KEY (`id`)\n)
OBJECT|table|d1|t2|CREATE TABLE `t2` (`a` int)
TABLE|1|d1|t1|5
COLUMN|1|0|id|3|0x61|63|0|int(11)
COLUMN|1|1|s|253|0|45|0|varchar(20)
COLUMN|1|2|b|252|0x4|63|0|blob
COLUMN|1|3|l|253|0|8|0|varchar(20)
COLUMN|1|4|u|253|0|35|0|varchar(5)
TABLE|2|d1|t2|1
COLUMN|2|0|a|3|0x40|63|0|int(11)
ROW|1|31|'it\x27s \\ "ok"\n\r\x1a\0\x7f|00FF5C27|E9|0041
ROW|2|35
ROW|1|32|\N|\N|'plain|\N
ROW|1|33|F09F9880C3|'|'caf|
TABLE_END|1|3
TABLE_END|2|1
OBJECT|trigger|d1|tr1|CREATE TRIGGER `tr1` BEFORE INSERT ON `t1` FOR EACH ROW SET NEW.s = 'é'|table=t1 sql_mode=
X
{ cat base.txt; echo TRAILER; } | gen >s.rp

rows2json --version >/dev/null; is $? 0 "rows2json --version exits 0"
json2rows --version >/dev/null; is $? 0 "json2rows --version exits 0"
rows2json --bogus 2>err </dev/null; is $? 2 "rows2json: an unknown option exits 2"
json2rows a b 2>err </dev/null; is $? 2 "json2rows: two files exit 2"

rows2json s.rp >s.jsonl; is $? 0 "rows2json converts a complete stream"
cat >want.jsonl <<'X'
{"type":"header","version":1,"meta":{"producer":"test","server_version":"10.11","time_zone":"+00:00"}}
{"type":"object","kind":"database","db":"d1","name":"d1","ddl":"CREATE DATABASE `d1` /*!40100 DEFAULT CHARACTER SET utf8mb4 */","attrs":{}}
{"type":"object","kind":"table","db":"d1","name":"t1","ddl":"CREATE TABLE `t1` (\n  `id` int NOT NULL,\n  `s` varchar(20),\n  `b` blob,\n  `l` varchar(20) CHARACTER SET latin1,\n  `u` varchar(5) CHARACTER SET ucs2,\n  PRIMARY KEY (`id`)\n)","attrs":{}}
{"type":"object","kind":"table","db":"d1","name":"t2","ddl":"CREATE TABLE `t2` (`a` int)","attrs":{}}
{"type":"table","db":"d1","name":"t1","columns":[{"name":"id","type":3,"flags":97,"collation":63,"decimals":0,"coltype":"int(11)"},{"name":"s","type":253,"flags":0,"collation":45,"decimals":0,"coltype":"varchar(20)"},{"name":"b","type":252,"flags":4,"collation":63,"decimals":0,"coltype":"blob"},{"name":"l","type":253,"flags":0,"collation":8,"decimals":0,"coltype":"varchar(20)"},{"name":"u","type":253,"flags":0,"collation":35,"decimals":0,"coltype":"varchar(5)"}],"attrs":{}}
{"type":"table","db":"d1","name":"t2","columns":[{"name":"a","type":3,"flags":64,"collation":63,"decimals":0,"coltype":"int(11)"}],"attrs":{}}
{"type":"row","db":"d1","table":"t1","row":{"id":"1","s":"it's \\ \"ok\"\n\r\u001a\u0000","b":{"base64":"AP9cJw=="},"l":{"base64":"6Q=="},"u":{"base64":"AEE="}}}
{"type":"row","db":"d1","table":"t2","row":{"a":"5"}}
{"type":"row","db":"d1","table":"t1","row":{"id":"2","s":null,"b":null,"l":"plain","u":null}}
{"type":"row","db":"d1","table":"t1","row":{"id":"3","s":{"base64":"8J+YgMM="},"b":{"base64":""},"l":"caf","u":{"base64":""}}}
{"type":"end","db":"d1","name":"t1","rows":3}
{"type":"end","db":"d1","name":"t2","rows":1}
{"type":"object","kind":"trigger","db":"d1","name":"tr1","ddl":"CREATE TRIGGER `tr1` BEFORE INSERT ON `t1` FOR EACH ROW SET NEW.s = 'é'","attrs":{"table":"t1","sql_mode":""}}
X
# The \x7f of row 1 is a plain byte in JSON: add it to the expectation.
sed -i '7s/\\u0000"/\\u0000\x7f"/' want.jsonl
head -n -1 s.jsonl >got.jsonl
is_file got.jsonl want.jsonl "every frame a line: strings, base64 for bytes, null, names as keys"
like "$(tail -1 s.jsonl)" '^\{"type":"trailer","frames":[0-9]+,"rows":4,"stmts":0,"objects":4,"bytes":[0-9]+\}$' \
    "the last line is the trailer, with the source's totals"

json2rows s.jsonl >back.rp; is $? 0 "json2rows reads them back"
framecat <s.rp | grep -v '^TRAILER' >a.txt
framecat <back.rp | grep -v '^TRAILER' >b.txt
is_file b.txt a.txt "the same frames, values byte for byte"
rows2sql s.rp >a.sql && rows2sql back.rp >b.sql
is_file b.sql a.sql "rows2sql writes the same text from both"
jq -c . s.jsonl | json2rows | rows2sql >c.sql
is_file c.sql a.sql "and through jq -c . too"

# Edits: jq sets one column of one table, awk rewrites a value in place.
jq -c 'if .table == "t1" and .row.l != null then .row.l = "L" + .row.id
    else . end' s.jsonl | json2rows | framecat -t >jq.txt
is "$(grep -ac "	L[0-9]	" jq.txt)" 3 "jq: every t1 row got its new l"
jq -c '(select(.table == "t1") | .row.s) |= "x"' s.jsonl | json2rows |
    framecat -t | grep -ac "^ROW	1	[123]	x	" >n; is "$(cat n)" 3 "jq: an update path leaves other lines alone"
jq -c 'select(.type != "row" or .row.id != "2")' s.jsonl | json2rows |
    framecat >drop.txt
is "$(grep -c '^ROW	1	' drop.txt) $(grep '^TABLE_END	1' drop.txt)" "2 TABLE_END	1	2" \
    "jq: a dropped row is recounted in the table's end"
awk '/"table":"t2"/ { sub(/"a":"[0-9]*"/, "\"a\":\"6\"") } { print }' s.jsonl |
    json2rows | framecat -t | grep -ac '^ROW	2	6$' >n
is "$(cat n)" 1 "awk: a substitution on the row line"
jq -c 'if .table == "t1" then .row.id |= tonumber else . end' s.jsonl |
    json2rows | rows2sql | cmp -s - a.sql; is $? 0 "a JSON integer is taken as its digits"

# A statement stream too.
printf 'USE d1;\nINSERT INTO t2 VALUES (1);\nSELECT "\\0";\n' >st.sql
sqlsplit st.sql >st.rp && rows2json st.rp >st.jsonl
like "$(sed -n 3p st.jsonl)" '^\{"type":"stmt","no":2,"line":2,"offset":8,"kind":"insert","db":"d1","target_db":"","target_table":"t2","text":"INSERT INTO t2 VALUES \(1\)","lex_mode":0\}$' \
    "a statement line"
json2rows st.jsonl | framecat >b.txt; framecat <st.rp >a.txt
is_file b.txt a.txt "statements round-trip"

# Cut input.
head -n 9 s.jsonl | json2rows >cut.rp 2>err; is $? 1 "a stream cut at a line end exits 1"
like "$(cat err)" '^json2rows: truncated after line 9: no trailer line' "and says it is cut"
framecat <cut.rp >/dev/null 2>err; is $? 1 "its frame stream has no trailer"
like "$(cat err)" 'truncated' "so the next reader sees it cut"
head -c $(($(wc -c <s.jsonl) - 20)) s.jsonl | json2rows >/dev/null 2>err
is $? 1 "a stream cut inside its last line exits 1"
like "$(cat err)" '^json2rows: line 14: column [0-9]+: .*cut short' "and names the line"
head -c $(($(wc -c <s.rp) - 30)) s.rp | rows2json >cut.jsonl 2>err
is $? 1 "rows2json: a cut frame stream exits 1"
like "$(cat err)" '^rows2json: truncated at byte' "and says where"
json2rows cut.jsonl >/dev/null 2>err; is $? 1 "its lines have no trailer: json2rows refuses them"

# Bad lines: each refused with its number.
bad() {	# bad LINE-NUMBER SED-SCRIPT PATTERN DESCRIPTION
	sed "$2" s.jsonl | json2rows >/dev/null 2>err; r=$?
	is "$r" 1 "$4: exits 1"
	like "$(cat err)" "^json2rows: line $1: $3" "$4: names line $1"
}
bad 7 '7s/"row":/"rows":/' 'row line with unknown key "rows"' "a mistyped key"
bad 8 '8s/"a":"5"/"a":"5","z":"1"/' 'd1.t2 has no column "z"' "an unknown column"
bad 8 '8s/"a":"5"/"x":"5"/' 'd1.t2 has no column "x"' "a column renamed"
bad 9 '9s/"l":"plain",//' 'd1.t1: no value for column "l"' "a missing column"
bad 9 '9s/"id":"2"/"id":null/' 'd1.t1: id: null for a NOT NULL column' "null in a NOT NULL column"
bad 9 '9s/"l":"plain"/"l":"pl\\u00e4in"/' 'd1.t1: l: non-ASCII text for a column not in UTF-8' "non-ASCII text for latin1"
bad 10 '10s/"u":{"base64":""}/"u":"x"/' 'd1.t1: u: text for a column in a wide' "text for ucs2"
bad 8 '8s/"a":"5"/"a":5.5/' 'd1.t2: a: a number with a fraction' "a real number"
bad 8 '8s/"a":"5"/"a":true/' 'd1.t2: a: neither a string' "true"
bad 7 '7s/"AP9cJw=="/"AP9c*w=="/' 'b: invalid base64' "bad base64"
bad 7 '7s/{"base64":"AP9cJw=="}/{"hex":"00"}/' 'b: an object other than' "another object"
bad 8 '8s/}}$/}/' 'column [0-9]+: ' "unbalanced JSON"
bad 8 '8s/"5"/"\\ud800"/' 'column [0-9]+: .*[Uu]nicode' "a lone surrogate"
bad 8 '8s/"a":"5"/"a":"5","a":"6"/' 'column [0-9]+: duplicate' "a duplicate key"
bad 8 '8s/"table":"t2"/"table":"t3"/' 'row of d1.t3 before its table line' "a row of an unknown table"
bad 13 '12a{"type":"row","db":"d1","table":"t2","row":{"a":"7"}}' 'row of d1.t2 after its end line' "a row after the end line"
bad 1 '1s/"header"/"head"/' 'not rows2json output' "no header"
bad 3 '3s/"object"/"objekt"/' 'unknown line type "objekt"' "an unknown line type"
bad 3 '3s/.*/[1,2]/' 'not a JSON object' "an array"
bad 1 '1s/"version":1/"version":2/' 'version 2 of the JSON Lines form' "another version"
bad 3 '3s/"kind":"table"/"kind":"tabel"/' 'unknown object kind "tabel"' "an unknown object kind"
bad 15 '$a{"type":"row"}' 'a line after the trailer line' "a line after the trailer"
bad 13 '13s/\("attrs":{\)/\1"x":{"base64":"AA=="},/' '"attrs": x: a NUL byte' "a NUL in an attribute"
printf '\n\n' >>s2.jsonl; cat s.jsonl >>s2.jsonl; printf '\r\n\n' >>s2.jsonl
json2rows s2.jsonl | rows2sql | cmp -s - a.sql; is $? 0 "blank lines and CR LF are taken"

json2rows </dev/null >/dev/null 2>err; is $? 1 "empty input exits 1"
like "$(cat err)" '^json2rows: empty input' "and says so"
json2rows s.rp >/dev/null 2>err; is $? 1 "a frame stream exits 1"
like "$(cat err)" '^json2rows: s.rp: line 1: input is a rowpipe frame stream, not JSON Lines' "and says what it is"
printf 'INSERT INTO t VALUES (1);\n' | json2rows >/dev/null 2>err; is $? 1 "SQL text exits 1"
like "$(cat err)" '^json2rows: line 1: column [0-9]+: ' "and names line 1"
rows2json a.sql >/dev/null 2>err; is $? 1 "rows2json: SQL text exits 1"
like "$(cat err)" 'not a rowpipe stream' "and says so"

done_testing
