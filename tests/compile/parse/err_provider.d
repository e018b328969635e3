provider p {
	probe a(int, ...);
	foo b();
};
