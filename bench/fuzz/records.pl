# bench/fuzz/records.pl < BLOB > SEED: a .dcc.meta blob (headers/dcc/abi.h)
# followed by ring-buffer records for fuzz_consumer's record decoder, each
# [u32 length][record]: for every clause (records of 16 bytes to 64 KiB) one
# of zeros, one of a byte pattern (values not zero, strings without their
# NUL), each after its struct dcc_rec_hdr (epid, the first probe's id, CPU
# 0, no flags), then a fault record of that clause (flags DCC_REC_F_FAULT,
# struct dcc_rec_fault: a kind in turn, a pc, address 0x1000). The records
# of a valid object, as seeds the fuzzer mutates.
use strict;
use warnings;
binmode STDIN;
binmode STDOUT;
local $/;
my $m = <STDIN> // '';
exit 1 if length $m < 48;
print $m;
my ($probe_off, $nprobes) = unpack 'V2', substr($m, 24, 8);
my ($clause_off, $nclauses) = unpack 'V2', substr($m, 40, 8);
my $probe = $nprobes && $probe_off + 4 <= length $m ? unpack('V', substr($m, $probe_off, 4)) : 0;
for my $i (0 .. $nclauses - 1) {
	# struct dcc_meta_clause: 24 bytes, the record's size at 4
	last if $clause_off + 24 * $i + 8 > length $m;
	my $size = unpack 'V', substr($m, $clause_off + 24 * $i + 4, 4);
	next if $size < 16 || $size > 65536;
	my $hdr = pack 'V4', $i + 1, $probe, 0, 0;
	my $pattern = join '', map { chr(($_ * 37 + 11) % 256) } 0 .. $size - 17;
	print pack('V', $size), $hdr, $_ for "\0" x ($size - 16), $pattern;
	print pack('V', 32), pack('V4', $i + 1, $probe, 0, 1), pack('V2Q<', 1 + $i % 8, 8 * $i, 4096);
}
