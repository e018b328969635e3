/*
 * Every operator, with C precedence; a valid program must parse silently.
 */
BEGIN
{
	a = 1 + 2 - 3 * 4 / 5 % 6;
	b = 1 << 2 >> 3;
	c = a < b; c = a > b; c = a <= b; c = a >= b; c = a == b; c = a != b;
	d = a & b | c ^ d;
	e = a && b || c ^^ d;
	f = !a; f = ~a; f = -a; f = +a; f = *p; f = &a;
	++g; --g; g++; g--;
	h = a ? b : c ? d : e;
	i = (a, b), (c, d);
	j += 1; j -= 1; j *= 2; j /= 2; j %= 3; j &= 4; j |= 5; j ^= 6; j <<= 1; j >>= 1;
	k = (int)a + (unsigned long long)b + (char *)p - (struct task_struct *)curthread;
	k = (string)s; k = (uint64_t)a; k = (size_t)(a);
	l = sizeof (int) + sizeof(struct foo) + sizeof a + sizeof(a);
	m = stringof(a); m = stringof a;
	n = offsetof(struct task_struct, pid);
	o = xlate<psinfo_t *>(curthread)->pr_fname;
	p = curthread->real_parent->pid; q = s.a.b; r = arr[1][2]; t = assoc[1, "x", a];
	self->ts = timestamp; this->x = self->ts; self->p->q = 1;
	@ = count(); @a = sum(1); @b[pid, execname] = quantize(arg0);
	printa("%s %@d\n", @b); clear(@a); trunc(@b, 10);
	u = $1 + $$2 + $target + $pid + $12;
	v = 'a' + '\n' + '\0' + '\377';
	w = "tab\there\n\"quoted\"\\ \a\b\f\r\v\x41\101";
	x = 0x1fUL + 017 + 42u + 42l + 42LL + 42ull + 0;
}
