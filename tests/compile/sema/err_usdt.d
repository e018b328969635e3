/* USDT descriptions sema refuses: a macro that is not $target, args[]
 * past what a note can have */
dcctest$targ:::tick {}
dcctest$target:::tick { trace(args[10]); }
