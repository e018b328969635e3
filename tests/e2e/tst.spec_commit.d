#pragma D option quiet
#pragma D option nspec=2
syscall::getppid:entry /pid == $target/
{
	self->n++;
	self->spec = speculation();
	speculate(self->spec);
	printf("call %d\n", self->n);
}
syscall::getppid:return /self->spec && self->n % 2 == 0/ { commit(self->spec); self->spec = 0; }
syscall::getppid:return /self->spec/ { discard(self->spec); self->spec = 0; }
syscall::getppid:entry /pid == $target/ { @c[self->n % 2 ? "odd" : "even"] = count(); @s[self->n % 2 ? "odd" : "even"] = sum(self->n); }
END { printa("%s count=%@d sum=%@d\n", @c, @s); }
