/* pid probes: entry, return and an offset (its name canonical hex) */
pid$target:a.out:main:entry, pid$target:a.out:main:return {}
pid$target:a.out:main:001C {}
pid1234:libc.so.6:mall*:4 {}
