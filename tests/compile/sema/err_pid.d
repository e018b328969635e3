pid*:a.out:f:entry {}
pid$target:a.out:f:* {}
pid$target:a.out:f:exit {}
pid0:a.out:f:entry {}
pid$target:a.out:f:entry { trace(args[0]); }
pid$target:a.out:f:0x1c {}
pid$target:a.out:f:1? {}
pid$target:a.out:f:12345678901234567 {}
