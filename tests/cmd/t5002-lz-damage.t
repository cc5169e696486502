#!/bin/sh
# lz -d on damaged input: not LZ4, every truncation point of a small file,
# a sample of single-bit flips across a large one, checksum mismatches,
# trailing garbage.  Always exit 1 with a one-line reason; never hang
# (every run has a deadline).
. "$(dirname "$0")/../lib.sh"
command -v lz4 >/dev/null || skip_all "no lz4 command"
command -v perl >/dev/null || skip_all "no perl"

# dec FILE [ARGS]: lz -d with a deadline; sets rc and msg (stderr).
dec() {
	f=$1; shift
	timeout 30 lz -d "$@" <"$f" >/dev/null 2>err
	rc=$?
	msg=
	read -r msg <err
}

# Not LZ4 at all.
: >empty
dec empty
is "$rc" 1 "empty input: exit 1"
is "$msg" 'lz: stdin: not an LZ4 stream' "empty input: not an LZ4 stream"
echo 'INSERT INTO t VALUES (1);' >text
dec text
is "$rc" 1 "SQL text: exit 1"
is "$msg" 'lz: stdin: not an LZ4 stream' "SQL text: not an LZ4 stream"
printf '\037\213\010\000\000\000\000\000\000\003junk' >text.gz
lz -d text.gz >/dev/null 2>err
is "$?" 1 "gzip file: exit 1"
is "$(cat err)" 'lz: text.gz: not an LZ4 stream' "gzip file: named"

# damage.pl cut FILE: every proper prefix of FILE through lz -d; prints
# the count of prefixes not exiting 1, and of reasons other than
# "truncated at byte N" ("not an LZ4 stream" for N = 0).
# damage.pl flip FILE N SEED [lz -d args]: single-bit flips in the first
# 32 and last 8 bytes and at N random places; prints the count of flips
# not reported as an error (exit 1).  The first failures go to stderr as
# diagnostics.  Each lz run has a 30 s deadline (SIGALRM kills it).
cat >damage.pl <<'PERL'
use strict;
my ($mode, $file, $n, $seed, @args) = @ARGV;
open(my $fh, '<:raw', $file) or die "$file: $!";
my $data = do { local $/; <$fh> };
close $fh;
my $len = length $data;
sub lzd {
	my ($d) = @_;
	open(my $out, '>:raw', 'damaged') or die;
	print $out $d;
	close $out;
	my $pid = fork;
	die "fork: $!" unless defined $pid;
	if ($pid == 0) {
		open(STDIN, '<', 'damaged');
		open(STDOUT, '>', '/dev/null');
		open(STDERR, '>', 'damaged.err');
		alarm(30);
		exec('lz', '-d', @args) or exit(127);
	}
	waitpid($pid, 0);
	my $st = $?;
	open(my $e, '<', 'damaged.err');
	my $msg = <$e> // '';
	chomp $msg;
	return ($st, $msg);
}
my ($bad, $badmsg) = (0, 0);
if ($mode eq 'cut') {
	for my $k (0 .. $len - 1) {
		my ($st, $msg) = lzd(substr($data, 0, $k));
		my $want = $k ? "truncated at byte $k" : 'not an LZ4 stream';
		if ($st != 256) {
			$bad++;
			print STDERR "# cut at $k: status $st\n" if $bad <= 5;
		}
		if ($msg ne "lz: stdin: $want") {
			$badmsg++;
			print STDERR "# cut at $k: $msg\n" if $badmsg <= 5;
		}
	}
	print "$bad $badmsg\n";
	exit 0;
}
srand($seed);
my @pos = ((0 .. 31), ($len - 8 .. $len - 1));
push @pos, int(rand($len)) for 1 .. $n;
for my $p (@pos) {
	my $bit = int(rand(8));
	my $d = $data;
	substr($d, $p, 1) = chr(ord(substr($d, $p, 1)) ^ (1 << $bit));
	my ($st, $msg) = lzd($d);
	if ($st != 256) {
		$bad++;
		print STDERR "# byte $p bit $bit: status $st\n" if $bad <= 5;
	}
}
print "$bad\n";
PERL

# Small files of two blocks of 64 KiB (the second stored raw), by lz with
# block checksums and by lz4 with linked blocks: about 400 bytes each.
awk 'BEGIN { for (i = 0; i < 4500; i++)
	printf "(%d,\x27row\x27,%d),\n", int(i / 700), int(i / 1000) }' |
    head -c 65536 >small
head -c 20 /dev/urandom >>small
lz -B4 --block-checksum <small >small1.lz4
lz4 -q -B4 -BD -c small >small2.lz4
for f in small1.lz4 small2.lz4; do
	size=$(wc -c <$f | tr -d ' ')
	set -- $(perl damage.pl cut $f)
	is "$1" 0 "$f: all $size truncation points exit 1"
	is "$2" 0 "$f: all say \"truncated at byte N\""
done

# Data where no bit flip can decode to the same bytes: 20 runs of a fresh
# 24 KiB random piece repeated 5 times (matches at a distance of 24 KiB).
# (In repetitive text a flipped match offset may point at identical bytes:
# the output is then right and no checksum can tell; see lz(1).)
i=0
while [ $i -lt 20 ]; do
	head -c 24576 /dev/urandom >piece
	cat piece piece piece piece piece
	i=$((i + 1))
done >big
lz <big >big1.lz4
is "$(perl damage.pl flip big1.lz4 120 1 -T2)" 0 \
    "lz's default frame: 160 bit flips all exit 1 (-T2)"
lz4 -q -BD -B5 -c big >big2.lz4
is "$(perl damage.pl flip big2.lz4 60 2 -T1)" 0 \
    "lz4 -BD frame: 100 bit flips all exit 1 (-T1)"
# SQL text: with block checksums every flip is caught whatever the data.
awk 'BEGIN { srand(5); for (i = 0; i < 30000; i++)
	printf "INSERT INTO t VALUES (%d,\x27%s-%d\x27,%d);\n", i,
	    (i % 3 ? "customer" : "supplier"), int(rand() * 100000),
	    int(rand() * 1000) }' >sql
lz -B4 --block-checksum <sql >sql.lz4
is "$(perl damage.pl flip sql.lz4 60 3)" 0 \
    "lz --block-checksum on SQL text: 100 bit flips all exit 1"

# The reasons.
cp big1.lz4 crc.lz4
perl -e 'open(F, "+<:raw", $ARGV[0]) or die; seek(F, -1, 2); read(F, $c, 1);
    seek(F, -1, 2); print F chr(ord($c) ^ 1); close F' crc.lz4
dec crc.lz4
is "$rc" 1 "content checksum flipped: exit 1"
is "$msg" "lz: stdin: corrupt: content checksum mismatch" \
    "content checksum flipped: reason"
lz -t crc.lz4 2>err
is "$?" 1 "lz -t: content checksum flipped: exit 1"
like "$(cat err)" 'content checksum mismatch' "lz -t: reason"

perl -e 'open(F, "+<:raw", $ARGV[0]) or die; seek(F, 5, 0);
    print F chr(0xFF); close F' crc.lz4
dec crc.lz4
is "$rc" 1 "block descriptor damaged: exit 1"
like "$msg" 'corrupt: frame at byte 0: bad frame descriptor' \
    "block descriptor damaged: reason"

cp sql.lz4 bcrc.lz4
perl -e 'open(F, "+<:raw", $ARGV[0]) or die; seek(F, 100, 0); read(F, $c, 1);
    seek(F, 100, 0); print F chr(ord($c) ^ 4); close F' bcrc.lz4
dec bcrc.lz4
is "$rc" 1 "block data flipped: exit 1"
like "$msg" 'corrupt: block checksum mismatch \(block at byte 7\)' \
    "block data flipped: block checksum reason"

{ cat big1.lz4; echo junk; } >trail.lz4
dec trail.lz4
is "$rc" 1 "trailing garbage: exit 1"
like "$msg" "byte $(wc -c <big1.lz4 | tr -d ' '): not an LZ4 frame \\(trailing garbage\\)" \
    "trailing garbage: reason"

{ cat big1.lz4; printf '\120\052\115\030\100\000\000\000abc'; } >skip.lz4
dec skip.lz4
is "$rc" 1 "truncated skippable frame: exit 1"
like "$msg" "truncated at byte" "truncated skippable frame: reason"

lz4 -q -l -c big >legacy.lz4
head -c 100000 legacy.lz4 >cut
dec cut
is "$rc" 1 "truncated legacy frame: exit 1"
is "$msg" "lz: stdin: truncated at byte 100000" "truncated legacy frame: reason"

done_testing
