pid*:a.out:f:entry {}
pid$target:a.out:f:12 {}
pid$target:a.out:f:exit {}
pid0:a.out:f:entry {}
pid$target:a.out:f:entry { trace(args[0]); }
