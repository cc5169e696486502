#!/bin/sh
# lz and a backup that did not end (issue 25): Ctrl-C or a failure of
# `dbsnap | rows2sql | lz' left a valid LZ4 file that lz -t passed.  Now a
# rowpipe stream or rows2sql text that lz compresses must end with its
# trailer: lz -o FILE leaves FILE as it was (its temporary file is
# removed), lz to stdout exits 1, and lz -t fails on such content, for
# cuts anywhere (inside a frame header, a payload, at a frame boundary,
# inside a line, at a line end) and for an aborted stream; --partial takes
# it.  Other data is not looked at.  lz -t is then the one step that
# verifies a backup of either kind.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t5007

fresh_db $db
sql $db -e "CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(200));
    INSERT INTO t SELECT seq, REPEAT(CHAR(65 + seq % 26), 150)
	FROM seq_1_to_3000" || exit 1
dbsnap $C $db >s.rp || exit 1
rows2sql <s.rp >s.sql || exit 1
sz=$(wc -c <s.rp)

# whole: -o FILE, stdout, -t; small blocks, so frames straddle them
for f in s.rp s.sql; do
	lz -B4 -T 2 -o $f.lz4 <$f 2>err
	is "$? $(cat err)" "0 " "$f: a whole one: lz -o writes it"
	lz -t $f.lz4 2>err
	is "$? $(cat err)" "0 " "$f: and lz -t passes it"
done

# frame offsets of s.rp: the prelude is 16 bytes, then 16-byte headers
# with the payload length first (little-endian)
offs=$(od -An -v -tu1 s.rp | tr -s ' \n' '  ' | awk -v sz="$sz" '{
	for (i = 1; i <= NF; i++) b[i - 1] = $i
	at = 16
	while (at < sz) {
		len = b[at] + b[at + 1] * 256 + b[at + 2] * 65536 + b[at + 3] * 16777216
		print at; at += 16 + len
	} }')
last=$(echo "$offs" | tail -1)
second=$(echo "$offs" | sed -n 2p)
for n in 8 17 $second $((second + 7)) $((second + 20)) $((sz / 2)) $last \
    $((last + 16)) $((sz - 1)); do
	head -c $n s.rp >cut.rp
	rm -f cut.lz4
	lz -B4 -o cut.lz4 <cut.rp 2>err
	is "$? $(cat err)" "1 lz: cut.lz4: not written: the input is a rowpipe stream without its trailer (cut) (--partial to take it)" \
	    "a stream cut at byte $n of $sz: lz -o exits 1"
	ok $(! [ -e cut.lz4 ] && ! ls -A | grep -q '^\.cut'; echo $?) \
	    "... and leaves no file, not even its temporary one"
	lz -B4 <cut.rp >cut2.lz4 2>err
	is $? 1 "... lz to stdout exits 1"
	lz -t cut2.lz4 2>err
	is "$? $(cat err)" "1 lz: cut2.lz4: the content is a rowpipe stream without its trailer (cut) (--partial to pass it)" \
	    "... and lz -t fails on what it wrote"
done
lz -t --partial cut2.lz4; is $? 0 "lz -t --partial passes a cut stream"
lz --partial -o part.lz4 <cut.rp; is $? 0 "lz --partial -o writes one"

# a text cut inside a line and at a line end
tsz=$(wc -c <s.sql)
lines=$(wc -l <s.sql)
for n in 20 $((tsz / 2)) $(head -n $((lines - 1)) s.sql | wc -c) $((tsz - 1)); do
	head -c $n s.sql >cut.sql
	rm -f cut.lz4
	lz -o cut.lz4 <cut.sql 2>err
	like "$? $(cat err)" "^1 lz: cut.lz4: not written: the input is a rows2sql text (without its trailer line \\(cut\\)|whose trailer line does not match)" \
	    "a text cut at byte $n of $tsz: lz -o exits 1"
	ok $(! [ -e cut.lz4 ]; echo $?) "... and leaves no file"
done
# a text whose trailer line is there but not where the text ends
{ cat s.sql; tail -1 s.sql; } >twice.sql
lz -o twice.lz4 <twice.sql 2>err
like "$(cat err)" "whose trailer line does not match" "a trailer line with another text's count: refused"

# a stream its producer aborted, and the text rows2sql made of it
printf 'SET NAMES gbk;\nSELECT 1;\n' | sqlsplit 2>/dev/null >ab.rp
lz -o ab.lz4 <ab.rp 2>err
is "$? $(cat err)" "1 lz: ab.lz4: not written: the input is a rowpipe stream that its producer aborted (--partial to take it)" \
    "an aborted stream: not written"
rows2sql --tables nosuch <s.rp 2>/dev/null | lz -o ab.lz4 2>err
like "$(cat err)" "the input is a rows2sql text that ends with its abort line" \
    "a text that ends with rows2sql's abort line: not written"

# the text of a rows2sql that failed before its input's header came (the
# dump could not connect): its abort line is its first and only line
dbsnap --no-defaults -S "$PWD/no-such-sock" x 2>/dev/null | rows2sql 2>/dev/null >abonly.sql
like "$(head -c 24 abonly.sql)" '^-- rowpipe-abort reason=' \
    "rows2sql of a dbsnap that could not connect: its abort line first"
rm -f ab2.lz4
lz -o ab2.lz4 <abonly.sql 2>err
like "$? $(cat err)" "^1 lz: ab2.lz4: not written: the input is a rows2sql text that ends with its abort line" \
    "a text that is only rows2sql's abort line: not written"
ok $(! [ -e ab2.lz4 ]; echo $?) "... and leaves no file"
lz <abonly.sql >ab2.lz4 2>/dev/null
lz -t ab2.lz4 2>err
is $? 1 "lz -t of such a text: exit 1"

# other data is not looked at
printf 'CREATE TABLE x (a int);\n' | lz -o plain.lz4; is $? 0 "plain SQL text: as before"
# An empty input: the producer failed before its first byte (killed while
# it waited for a lock, or a typo in its name): no file at the final name,
# and lz -t fails on an empty content; to standard output it is still the
# empty frame lz4(1) writes, and --partial takes it.
: | lz -o empty.lz4 2>err
is "$? $(ls empty.lz4 2>/dev/null)" "1 " "an empty input: lz -o writes no file, exit 1"
like "$(cat err)" "^lz: empty.lz4: not written: the input is empty \\(no byte: the producer wrote nothing\\)" \
    "... and says that the input was empty"
nosuchprogram 2>/dev/null | lz -o empty.lz4 2>/dev/null
is "$? $(ls empty.lz4 2>/dev/null)" "1 " "a producer that never started: no file"
: | lz >empty0.lz4; is $? 0 "an empty input to standard output: exit 0, as lz4(1)"
lz4 -dc empty0.lz4 | wc -c | grep -qx 0; ok $? "... an empty frame that lz4 reads"
lz -t empty0.lz4 2>err; is $? 1 "lz -t of an empty content: exit 1"
like "$(cat err)" "the content is empty" "... naming it"
lz -t --partial empty0.lz4; is $? 0 "lz -t --partial passes it"
: | lz --partial -o empty.lz4; is "$? $(ls empty.lz4)" "0 empty.lz4" "lz --partial -o takes an empty input"
printf '\211RPS' | lz -o short.lz4 2>err
is $? 1 "a cut rowpipe magic: not written"

# The README backup, cut by the failure of its first program: the
# pipeline leaves no shop.sql.lz4 (before: a file lz -t passed).
head -c $((sz / 2)) s.rp | rows2sql 2>/dev/null | lz -o shop.sql.lz4 2>err
is "$? $(ls shop.sql.lz4 2>/dev/null)" "1 " \
    "dbsnap cut | rows2sql | lz -o shop.sql.lz4: exit 1, no file"

sql -e "DROP DATABASE $db"
done_testing
