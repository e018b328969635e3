proc:::signal-clear { }
proc:::lwp-start { }
proc:::no-such-probe { }
proc:::signal-* { }
