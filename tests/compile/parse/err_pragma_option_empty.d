#pragma D option
#pragma D option a b
