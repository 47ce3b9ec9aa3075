#!/usr/bin/perl
# forks.pl - perl with fork, pipes, regexes, hashes and sort; deterministic
# output (bench/real-suites.sh compares it plain and under leakscope).
use strict;
use warnings;

my %count;
my $text = join ' ', map { "word$_ item" . ($_ % 7) . " thing" . ($_ % 13) } 1 .. 20000;
$count{$_}++ for $text =~ /\b(item\d+|thing\d+)\b/g;
for my $k (sort { $count{$b} <=> $count{$a} || $a cmp $b } keys %count) {
	print "$k $count{$k}\n";
}
my @dates = ('2024-03-01', '1999-12-31', '2010-07-15');
for (sort @dates) {
	my ($y, $m, $d) = /^(\d{4})-(\d\d)-(\d\d)$/ or die;
	(my $s = $_) =~ s/(\d+)-(\d+)-(\d+)/$3.$2.$1/;
	print "$_ -> $s (year $y)\n";
}

# children through fork, results back through pipes
my @kids;
for my $i (1 .. 8) {
	pipe(my $r, my $w) or die "pipe: $!";
	my $pid = fork() // die "fork: $!";
	if ($pid == 0) {
		close $r;
		my %h = map { ($_ => $_ * $i) } 1 .. 5000;
		my $sum = 0;
		$sum += $h{$_} for grep { /7/ } keys %h;
		print $w "child $i sum $sum\n";
		close $w;
		exit($i % 4);
	}
	close $w;
	push @kids, [$pid, $r, $i];
}
for my $k (@kids) {
	my ($pid, $r, $i) = @$k;
	my $line = <$r>;
	waitpid($pid, 0);
	print $line =~ s/\n//r, ", status ", $? >> 8, "\n";
}
my $out = `echo backticks | tr a-z A-Z`;
print "qx: $out";
my $st = system('sh', '-c', 'exit 6');
print "system: ", $? >> 8, "\n";
open(my $p, '-|', 'seq', '1', '5') or die;
my @l = <$p>;
close $p;
print "seq: ", scalar(@l), " lines\n";
local $SIG{USR1} = sub { print "USR1 handled\n" };
kill 'USR1', $$;
my @big = sort { $a <=> $b } map { ($_ * 7919) % 100003 } 1 .. 100000;
print "sorted: $big[0] $big[1] $big[-1]\n";
exit 4;
